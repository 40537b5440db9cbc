import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** A throwaway CA and a `localhost` certificate it signed, for an HTTPS server on loopback. */
export interface LoopbackTls {
  /** PEM file of the CA: what `SSL_CERT_FILE` points Go (gh) at. */
  readonly caFile: string;
  readonly key: string;
  readonly cert: string;
}

/**
 * Makes a CA and a server certificate for `localhost`/`127.0.0.1` in `dir` with the `openssl`
 * binary (node:crypto cannot sign certificates). Go checks the SAN, so both names are in it.
 */
export function makeLoopbackTls(dir: string): LoopbackTls {
  const at = (name: string): string => join(dir, name);
  const openssl = (args: readonly string[]): void => {
    execFileSync('openssl', args, { stdio: 'pipe' });
  };
  openssl([
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-keyout',
    at('ca.key'),
    '-out',
    at('ca.pem'),
    '-days',
    '2',
    '-subj',
    '/CN=heartbeat-kit test CA',
    '-addext',
    'basicConstraints=critical,CA:TRUE',
    '-addext',
    'keyUsage=critical,keyCertSign',
  ]);
  openssl(['req', '-newkey', 'rsa:2048', '-nodes', '-keyout', at('leaf.key'), '-out', at('leaf.csr'), '-subj', '/CN=localhost']);
  writeFileSync(at('leaf.ext'), 'subjectAltName=DNS:localhost,IP:127.0.0.1\nextendedKeyUsage=serverAuth\n');
  openssl([
    'x509',
    '-req',
    '-in',
    at('leaf.csr'),
    '-CA',
    at('ca.pem'),
    '-CAkey',
    at('ca.key'),
    '-CAcreateserial',
    '-out',
    at('leaf.pem'),
    '-days',
    '2',
    '-extfile',
    at('leaf.ext'),
  ]);
  return { caFile: at('ca.pem'), key: readFileSync(at('leaf.key'), 'utf8'), cert: readFileSync(at('leaf.pem'), 'utf8') };
}
