import { createHash, generateKeyPairSync, randomBytes, sign } from "node:crypto";

import { isoCBOR } from "@simplewebauthn/server/helpers";

type CBORType = Parameters<typeof isoCBOR.encode>[0];

// A passkey authenticator in software, for API tests: an ECDSA P-256 key (ES256) made here, answers
// in the browser's JSON shapes (what @simplewebauthn/browser sends), attestation "none". It signs
// with node:crypto; the server checks with @simplewebauthn/server, as it would a real device.

const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString("base64url");
const u32 = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n);
  return b;
};

export function softwareAuthenticator(relyingParty: { origin: string; rpID: string }) {
  const { privateKey, publicKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
  const jwk = publicKey.export({ format: "jwk" });
  const credentialId = randomBytes(16);
  const rpIdHash = createHash("sha256").update(relyingParty.rpID).digest();
  let counter = 0;
  const clientData = (type: string, challenge: string, origin = relyingParty.origin) =>
    Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }));
  /** The credential's answer as the browser's JSON gives it. */
  const answer = <R>(response: R) => ({
    id: b64(credentialId),
    rawId: b64(credentialId),
    type: "public-key" as const,
    clientExtensionResults: {},
    response,
  });
  return {
    id: b64(credentialId),
    /** The answer to a registration challenge (`generateRegistrationOptions`' JSON). */
    register(options: { challenge: string }) {
      const coseKey = new Map<number, CBORType>([
        [1, 2],
        [3, -7],
        [-1, 1],
        [-2, new Uint8Array(Buffer.from(jwk.x!, "base64url"))],
        [-3, new Uint8Array(Buffer.from(jwk.y!, "base64url"))],
      ]);
      const idLength = Buffer.alloc(2);
      idLength.writeUInt16BE(credentialId.length);
      const authData = Buffer.concat([
        rpIdHash,
        Buffer.from([0x01 | 0x04 | 0x40]), // user present, verified, attested credential data
        u32(counter),
        Buffer.alloc(16), // AAGUID
        idLength,
        credentialId,
        Buffer.from(isoCBOR.encode(coseKey)),
      ]);
      const attestation = isoCBOR.encode(
        new Map<string, CBORType>([
          ["fmt", "none"],
          ["attStmt", new Map<string, CBORType>()],
          ["authData", new Uint8Array(authData)],
        ]),
      );
      return answer({
        clientDataJSON: b64(clientData("webauthn.create", options.challenge)),
        attestationObject: b64(attestation),
        transports: ["internal" as const],
      });
    },
    /** The answer to a sign-in challenge; `origin` lets a test answer from another site. */
    authenticate(options: { challenge: string }, origin?: string) {
      counter += 1;
      const authData = Buffer.concat([rpIdHash, Buffer.from([0x01 | 0x04]), u32(counter)]);
      const data = clientData("webauthn.get", options.challenge, origin);
      const signature = sign(
        "sha256",
        Buffer.concat([authData, createHash("sha256").update(data).digest()]),
        privateKey,
      );
      return answer({ clientDataJSON: b64(data), authenticatorData: b64(authData), signature: b64(signature) });
    },
  };
}
