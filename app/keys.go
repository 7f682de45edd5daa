package app

// KeysPath is where the App publishes, as a JWKS, the public keys that
// verify its signed certificates (app/jwks).
const KeysPath = "/.well-known/aepgate/keys"
