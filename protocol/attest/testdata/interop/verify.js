// Verifies an aepgate Sigstore bundle with Sigstore's own verifier
// (@sigstore/verify), independently of aepgate's Go code: the DSSE
// signature over the PAE by the key its hint names in the JWKS, then the
// in-toto statement's type, predicate type and subject commit.
// Usage: node verify.js BUNDLE.json KEYS.jwks SHA
'use strict';
const crypto = require('crypto');
const fs = require('fs');
const { bundleFromJSON } = require('@sigstore/bundle');
const { Verifier, toSignedEntity, toTrustMaterial } = require('@sigstore/verify');

const [bundlePath, jwksPath, sha] = process.argv.slice(2);
const bundle = bundleFromJSON(JSON.parse(fs.readFileSync(bundlePath, 'utf8')));
const jwks = JSON.parse(fs.readFileSync(jwksPath, 'utf8'));

function findKey(hint) {
  const jwk = jwks.keys.find((k) => k.kid === hint && !k.revoked);
  if (!jwk) throw new Error(`no trusted key ${hint}`);
  const publicKey = crypto.createPublicKey({ key: jwk, format: 'jwk' });
  return { publicKey, validFor: () => true };
}

const root = { certificateAuthorities: [], timestampAuthorities: [], tlogs: [], ctlogs: [] };
const verifier = new Verifier(toTrustMaterial(root, findKey), { tlogThreshold: 0, ctlogThreshold: 0, timestampThreshold: 0 });
verifier.verify(toSignedEntity(bundle));

const env = bundle.content.dsseEnvelope;
if (env.payloadType !== 'application/vnd.in-toto+json') throw new Error(`payloadType ${env.payloadType}`);
const st = JSON.parse(Buffer.from(env.payload).toString('utf8'));
if (st._type !== 'https://in-toto.io/Statement/v1') throw new Error(`_type ${st._type}`);
if (st.predicateType !== 'https://aepgate.dev/certificate/v1') throw new Error(`predicateType ${st.predicateType}`);
if (st.subject.length !== 1 || st.subject[0].digest.gitCommit !== sha) throw new Error(`subject ${JSON.stringify(st.subject)}`);
if (st.predicate.mergeSha !== sha) throw new Error(`predicate mergeSha ${st.predicate.mergeSha}`);
console.log(`verified by @sigstore/verify: key ${bundle.verificationMaterial.content.publicKey.hint}, subject ${sha}`);
