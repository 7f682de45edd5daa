// Verifies an aepgate Sigstore bundle with Sigstore's own verifier
// (@sigstore/verify), independently of aepgate's Go code: the DSSE
// signature over the PAE by the key its hint names in the JWKS (a plain
// JWKS consumer: a revoked key has left the JWKS), then the in-toto
// statement's type, predicate type, subject commit, and that the subject
// names the certificate's repository. For an
// increment certificate (predicate type https://aepgate.dev/increment/v1)
// each story bundle given after SHA is verified the same way as a unit
// certificate about its story's merge commit, and every story envelope
// the increment names by SHA-256 (envelopeSha256, over the envelope's
// JSON {payloadType, payload, signatures: [{keyid, sig}]} in standard
// base64) must be among them, and each given one named.
// The standard statements the App signs beside a unit certificate are
// checked the same way, their repository read from the predicate and the
// subject's uri required to name it: a source-review coverage statement
// must be of class identity or replay, an SLSA VSA must say PASSED with
// SLSA_SOURCE_TWO_PARTY_REVIEWED among its verifiedLevels and a policy
// with a digest.
// Usage: node verify.js BUNDLE.json KEYS.jwks SHA [STORY-BUNDLE.json ...]
'use strict';
const crypto = require('crypto');
const fs = require('fs');
const { bundleFromJSON } = require('@sigstore/bundle');
const { Verifier, toSignedEntity, toTrustMaterial } = require('@sigstore/verify');

const [bundlePath, jwksPath, sha, ...storyPaths] = process.argv.slice(2);
const jwks = JSON.parse(fs.readFileSync(jwksPath, 'utf8'));

function findKey(hint) {
  const jwk = jwks.keys.find((k) => k.kid === hint);
  if (!jwk) throw new Error(`no trusted key ${hint}`);
  const publicKey = crypto.createPublicKey({ key: jwk, format: 'jwk' });
  return { publicKey, validFor: () => true };
}

const root = { certificateAuthorities: [], timestampAuthorities: [], tlogs: [], ctlogs: [] };
const verifier = new Verifier(toTrustMaterial(root, findKey), { tlogThreshold: 0, ctlogThreshold: 0, timestampThreshold: 0 });

const kinds = {
  'https://aepgate.dev/certificate/v1': 'mergeSha',
  'https://aepgate.dev/increment/v1': 'integratedSha',
};

// standard maps a standard statement's predicate type to the check of its
// predicate, which returns the repository (OWNER/NAME) it names.
const standard = {
  'https://slsa.dev/verification_summary/v1': (p) => {
    if (p.verificationResult !== 'PASSED') throw new Error(`verificationResult ${p.verificationResult}`);
    if (!Array.isArray(p.verifiedLevels) || !p.verifiedLevels.includes('SLSA_SOURCE_TWO_PARTY_REVIEWED')) throw new Error(`verifiedLevels ${JSON.stringify(p.verifiedLevels)}`);
    if (!p.policy || !p.policy.uri || !p.policy.digest || Object.keys(p.policy.digest).length === 0) throw new Error(`policy ${JSON.stringify(p.policy)}`);
    const m = /^git\+https:\/\/github\.com\/([^/]+\/[^/]+)$/.exec(p.resourceUri || '');
    if (!m) throw new Error(`resourceUri ${p.resourceUri}`);
    return m[1];
  },
  'https://aepgate.dev/source-review-coverage/v0.1': (p) => {
    if (p.class !== 'identity' && p.class !== 'replay') throw new Error(`class ${p.class}`);
    const m = /^https:\/\/github\.com\/([^/]+\/[^/]+)$/.exec(p.repository || '');
    if (!m) throw new Error(`repository ${p.repository}`);
    return m[1];
  },
};

// verify checks one bundle with Sigstore's verifier and its statement's
// types and subject, and returns the statement and the envelope's digest.
function verify(path, wantType, wantSha) {
  const bundle = bundleFromJSON(JSON.parse(fs.readFileSync(path, 'utf8')));
  verifier.verify(toSignedEntity(bundle));
  const env = bundle.content.dsseEnvelope;
  if (env.payloadType !== 'application/vnd.in-toto+json') throw new Error(`payloadType ${env.payloadType}`);
  const st = JSON.parse(Buffer.from(env.payload).toString('utf8'));
  if (st._type !== 'https://in-toto.io/Statement/v1') throw new Error(`_type ${st._type}`);
  const hint = bundle.verificationMaterial.content.publicKey.hint;
  if (standard[st.predicateType] && !wantType) {
    const repo = standard[st.predicateType](st.predicate);
    const uri = `https://github.com/${repo}/commit/${wantSha}`;
    if (st.subject.length !== 1 || st.subject[0].digest.gitCommit !== wantSha || st.subject[0].uri !== uri) {
      throw new Error(`subject ${JSON.stringify(st.subject)} is not ${uri}`);
    }
    return { st, hint, repo };
  }
  const key = kinds[st.predicateType];
  if (!key || (wantType && st.predicateType !== wantType)) throw new Error(`predicateType ${st.predicateType}`);
  if (st.subject.length !== 1 || st.subject[0].digest.gitCommit !== wantSha) throw new Error(`subject ${JSON.stringify(st.subject)}`);
  if (st.predicate[key] !== wantSha) throw new Error(`predicate ${key} ${st.predicate[key]}`);
  const repoSubject = `https://github.com/${st.predicate.repository}/commit/${wantSha}`;
  if (!st.predicate.repository || st.subject[0].name !== repoSubject) throw new Error(`subject ${st.subject[0].name} is not ${repoSubject}`);
  const wire = JSON.stringify({
    payloadType: env.payloadType,
    payload: Buffer.from(env.payload).toString('base64'),
    signatures: env.signatures.map((s) => ({ keyid: s.keyid, sig: Buffer.from(s.sig).toString('base64') })),
  });
  const digest = crypto.createHash('sha256').update(wire).digest('hex');
  return { st, digest, hint };
}

const top = verify(bundlePath, '', sha);
if (top.repo) {
  if (storyPaths.length > 0) throw new Error('story bundles apply to an increment certificate only');
  console.log(`verified by @sigstore/verify: key ${top.hint}, ${top.st.predicateType} subject ${sha} in ${top.repo}`);
} else if (top.st.predicateType === 'https://aepgate.dev/increment/v1') {
  const given = new Map();
  for (const p of storyPaths) {
    const bundle = JSON.parse(fs.readFileSync(p, 'utf8'));
    const st = JSON.parse(Buffer.from(bundle.dsseEnvelope.payload, 'base64').toString('utf8'));
    const story = verify(p, 'https://aepgate.dev/certificate/v1', st.predicate.mergeSha);
    given.set(story.digest, story);
  }
  const named = top.st.predicate.stories.filter((s) => s.envelopeSha256);
  for (const s of named) {
    const story = given.get(s.envelopeSha256);
    if (!story) throw new Error(`story #${s.unit}: no envelope with sha256 ${s.envelopeSha256}`);
    if (story.st.predicate.mergeSha !== s.mergeSha || story.st.predicate.workUnit !== String(s.unit)) {
      throw new Error(`story #${s.unit}: the envelope certifies unit ${story.st.predicate.workUnit} at ${story.st.predicate.mergeSha}`);
    }
  }
  if (given.size !== named.length) throw new Error(`${given.size} story envelopes given, ${named.length} named`);
  console.log(`verified by @sigstore/verify: key ${top.hint}, increment subject ${sha}, ${named.length} story envelopes`);
} else {
  if (storyPaths.length > 0) throw new Error('story bundles apply to an increment certificate only');
  console.log(`verified by @sigstore/verify: key ${top.hint}, subject ${sha}`);
}
