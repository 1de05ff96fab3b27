// Test TLS material: a throwaway CA and a server certificate for localhost, 127.0.0.1 and ::1.
// The stack generates it before Jest starts and trusts the CA through NODE_EXTRA_CA_CERTS.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { constants, generateKeyPairSync, privateEncrypt, X509Certificate } from 'node:crypto';
import forge from 'node-forge';

export const TEST_TLS_FILES = { ca: 'ca.pem', cert: 'server.pem', key: 'server-key.pem' } as const;

export interface TestTlsMaterial {
  ca: string;
  cert: string;
  key: string;
}

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * A positive 16-byte serial in minimal DER form: the first byte is 0x01..0x7f (high bit clear: not negative; not
 * zero: a leading 0x00 before a byte below 0x80 is "illegal padding" to OpenSSL, which failed about one run in 16).
 */
export function certificateSerial(): string {
  const bytes = forge.random.getBytesSync(16);
  const first = (bytes.charCodeAt(0) & 0x7f) | 0x01;
  return forge.util.bytesToHex(String.fromCharCode(first) + bytes.slice(1));
}

interface KeyPair {
  publicKey: forge.pki.rsa.PublicKey;
  /** Signs like a forge private key (RSA PKCS#1 v1.5 over SHA-256), but with Node's native RSA: pure-JS RSA is slow. */
  signer: forge.pki.rsa.PrivateKey;
  privatePem: string;
}

// DER prefix of a PKCS#1 DigestInfo for SHA-256; the digest follows.
const SHA256_DIGEST_INFO = Buffer.from('3031300d060960864801650304020105000420', 'hex');

/** RSA keys from Node's native generator, handed to forge for certificate building only. */
function rsaKeyPair(): KeyPair {
  const { publicKey, privateKey } = generateKeyPairSync('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });
  const signer = {
    sign(md: forge.md.MessageDigest): string {
      const digest = Buffer.from(md.digest().getBytes(), 'binary');
      const signature = privateEncrypt({ key: privateKey, padding: constants.RSA_PKCS1_PADDING }, Buffer.concat([SHA256_DIGEST_INFO, digest]));
      return signature.toString('binary');
    },
  } as unknown as forge.pki.rsa.PrivateKey;
  return { publicKey: forge.pki.publicKeyFromPem(publicKey) as forge.pki.rsa.PublicKey, signer, privatePem: privateKey };
}

async function readExisting(dir: string): Promise<TestTlsMaterial | null> {
  try {
    const [ca, cert, key] = await Promise.all(
      [TEST_TLS_FILES.ca, TEST_TLS_FILES.cert, TEST_TLS_FILES.key].map((file) => readFile(join(dir, file), 'utf8')),
    );
    const caCert = new X509Certificate(ca!);
    const serverCert = new X509Certificate(cert!);
    const stillValid = Date.parse(serverCert.validTo) - Date.now() > DAY_MS;
    if (!stillValid || !serverCert.verify(caCert.publicKey) || !serverCert.checkHost('localhost')) return null;
    return { ca: ca!, cert: cert!, key: key! };
  } catch {
    return null;
  }
}

/**
 * Writes `ca.pem`, `server.pem` and `server-key.pem` into `dir` (SAN: localhost, 127.0.0.1, ::1).
 * Keeps valid existing files (a running process may already trust that CA) unless `force` is set.
 */
export async function generateTestTls(dir: string, options: { force?: boolean } = {}): Promise<TestTlsMaterial> {
  if (!options.force) {
    const existing = await readExisting(dir);
    if (existing) return existing;
  }
  const { pki } = forge;
  const now = new Date();
  const notBefore = new Date(now.getTime() - DAY_MS);
  const notAfter = new Date(now.getTime() + 365 * DAY_MS);

  const caKeys = rsaKeyPair();
  const caCert = pki.createCertificate();
  caCert.publicKey = caKeys.publicKey;
  caCert.serialNumber = certificateSerial();
  caCert.validity.notBefore = notBefore;
  caCert.validity.notAfter = notAfter;
  const caName = [{ name: 'commonName', value: 'Tributary Test CA' }, { name: 'organizationName', value: 'Tributary tests' }];
  caCert.setSubject(caName);
  caCert.setIssuer(caName);
  caCert.setExtensions([
    { name: 'basicConstraints', cA: true, critical: true },
    { name: 'keyUsage', keyCertSign: true, cRLSign: true, critical: true },
    { name: 'subjectKeyIdentifier' },
  ]);
  caCert.sign(caKeys.signer, forge.md.sha256.create());

  const serverKeys = rsaKeyPair();
  const serverCert = pki.createCertificate();
  serverCert.publicKey = serverKeys.publicKey;
  serverCert.serialNumber = certificateSerial();
  serverCert.validity.notBefore = notBefore;
  serverCert.validity.notAfter = notAfter;
  serverCert.setSubject([{ name: 'commonName', value: 'localhost' }]);
  serverCert.setIssuer(caName);
  serverCert.setExtensions([
    { name: 'basicConstraints', cA: false },
    { name: 'keyUsage', digitalSignature: true, keyEncipherment: true, critical: true },
    { name: 'extKeyUsage', serverAuth: true },
    {
      name: 'subjectAltName',
      altNames: [
        { type: 2, value: 'localhost' },
        { type: 7, ip: '127.0.0.1' },
        { type: 7, ip: '::1' },
      ],
    },
    { name: 'subjectKeyIdentifier' },
    { name: 'authorityKeyIdentifier', keyIdentifier: caCert.generateSubjectKeyIdentifier().getBytes() },
  ]);
  serverCert.sign(caKeys.signer, forge.md.sha256.create());

  const material: TestTlsMaterial = {
    ca: pki.certificateToPem(caCert),
    cert: pki.certificateToPem(serverCert),
    key: serverKeys.privatePem,
  };
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, TEST_TLS_FILES.ca), material.ca);
  await writeFile(join(dir, TEST_TLS_FILES.cert), material.cert);
  await writeFile(join(dir, TEST_TLS_FILES.key), material.key, { mode: 0o600 });
  return material;
}

/** Reads the TLS material from `dir` (default TRIBUTARY_TEST_TLS_DIR). */
export async function loadTestTls(dir = process.env.TRIBUTARY_TEST_TLS_DIR): Promise<TestTlsMaterial> {
  if (!dir) throw new Error('TRIBUTARY_TEST_TLS_DIR is not set: generate test TLS files with generateTestTls(dir) and point it there');
  const [ca, cert, key] = await Promise.all(
    [TEST_TLS_FILES.ca, TEST_TLS_FILES.cert, TEST_TLS_FILES.key].map((file) => readFile(join(dir, file), 'utf8')),
  );
  return { ca: ca!, cert: cert!, key: key! };
}
