/**
 * Starts a private Redis Cluster — 3 masters and 3 replicas, each `redis-server --cluster-enabled
 * yes` on a loopback port chosen by the OS (so parallel test files never collide), joined by
 * `redis-cli --cluster create … --cluster-replicas 1` — and stops it again. Uses only node's
 * built-ins and the redis-server/redis-cli binaries (Debian's redis-server package ships both), so
 * the benchmarks can import it too. Short node timeouts make a failover take seconds, not 15 s.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';

/** One redis-server of the cluster. */
export interface ClusterNode {
  readonly port: number;
  readonly dir: string;
  child: ChildProcess;
}

/** A running private cluster. */
export interface TestCluster {
  readonly dir: string;
  readonly nodes: readonly ClusterNode[];
  /** `redis://127.0.0.1:P1,redis://127.0.0.1:P2,…`: what `--redis` and FLEET_REDIS_URL take. */
  readonly url: string;
  /** Runs redis-cli against one node (argv, no shell) and resolves its stdout. */
  readonly cli: (port: number, ...args: string[]) => Promise<string>;
  /** The ports of the nodes that are masters now, as the cluster itself reports. */
  readonly masters: () => Promise<number[]>;
  /** The master port serving `key`'s slot. */
  readonly masterOf: (key: string) => Promise<number>;
  /** The ports of the live replicas of the master on `port`. */
  readonly replicasOf: (port: number) => Promise<number[]>;
  /** The node on `port`. */
  readonly node: (port: number) => ClusterNode;
  /** SIGKILLs one node (no shutdown save). */
  readonly kill: (port: number) => Promise<void>;
  /** Starts a killed node again on its directory and port; it rejoins (as a replica if replaced). */
  readonly restart: (port: number) => Promise<void>;
  /** Waits until every slot is served and the cluster answers `cluster_state:ok` from every live node. */
  readonly waitHealthy: () => Promise<void>;
  /** Stops every node and removes the directory. */
  readonly stop: () => Promise<void>;
}

/** Options of {@link startCluster}. */
export interface StartClusterOptions {
  readonly masters?: number;
  readonly replicasPerMaster?: number;
  /** `cluster-node-timeout`: how long a silent master takes to be failed over (default 2000 ms). */
  readonly nodeTimeoutMs?: number;
  /** `appendfsync` of every node (default `always`, like the single-Redis tests). */
  readonly appendfsync?: 'always' | 'everysec' | 'no';
}

function binary(name: string): string {
  const dirs = [...(process.env.PATH ?? '').split(':').filter(Boolean), '/usr/bin', '/usr/sbin', '/usr/local/bin', '/opt/homebrew/bin'];
  const found = dirs.map((dir) => join(dir, name)).find((file) => existsSync(file));
  if (found === undefined)
    throw new Error(`${name} not found on PATH. Fix: apt-get install redis-server (it ships redis-cli; .ci/run does).`);
  return found;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address !== null ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/** A port the OS says is free whose cluster bus port (port + 10000) is free too. */
async function freeClusterPort(taken: Set<number>): Promise<number> {
  for (;;) {
    const port = await freePort();
    if (port > 55_000 || taken.has(port) || taken.has(port + 10_000)) continue;
    if (await portIsFree(port + 10_000)) {
      taken.add(port);
      taken.add(port + 10_000);
      return port;
    }
  }
}

function run(file: string, args: readonly string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(file, [...args], { timeout: 60_000 }, (error, stdout, stderr) =>
      error === null ? resolve(stdout) : reject(new Error(`${file} ${args.join(' ')}: ${error.message} ${stderr}`)),
    );
  });
}

/** Starts the cluster: free ports, six servers, `redis-cli --cluster create`, then waits until it is healthy. */
export async function startCluster(options: StartClusterOptions = {}): Promise<TestCluster> {
  const server = binary('redis-server');
  const redisCli = binary('redis-cli');
  const count = (options.masters ?? 3) * (1 + (options.replicasPerMaster ?? 1));
  const dir = mkdtempSync(join(tmpdir(), 'hb-redis-cluster-'));
  const taken = new Set<number>();
  const nodes: ClusterNode[] = [];
  const cli = (port: number, ...args: string[]): Promise<string> => run(redisCli, ['-h', '127.0.0.1', '-p', String(port), ...args]);

  const launch = async (port: number, nodeDir: string): Promise<ChildProcess> => {
    const child = spawn(
      server,
      [
        '--port',
        String(port),
        '--bind',
        '127.0.0.1',
        '--cluster-enabled',
        'yes',
        '--cluster-config-file',
        join(nodeDir, 'nodes.conf'),
        '--cluster-node-timeout',
        String(options.nodeTimeoutMs ?? 2000),
        // A replica takes over however long its link was down (the default refuses after a while).
        '--cluster-replica-validity-factor',
        '0',
        '--dir',
        nodeDir,
        '--appendonly',
        'yes',
        '--appendfsync',
        options.appendfsync ?? 'always',
        '--save',
        '',
        '--daemonize',
        'no',
        '--loglevel',
        'warning',
      ],
      { stdio: ['ignore', 'ignore', 'inherit'] },
    );
    for (;;) {
      if (child.exitCode !== null) throw new Error(`redis-server on port ${port} exited with ${child.exitCode}`);
      const answered = await cli(port, 'PING').catch(() => '');
      if (answered.trim() === 'PONG') return child;
      await delay(25);
    }
  };

  try {
    for (let i = 0; i < count; i += 1) {
      const port = await freeClusterPort(taken);
      const nodeDir = join(dir, String(port));
      mkdirSync(nodeDir);
      nodes.push({ port, dir: nodeDir, child: await launch(port, nodeDir) });
    }
    await run(redisCli, [
      '--cluster',
      'create',
      ...nodes.map((node) => `127.0.0.1:${node.port}`),
      '--cluster-replicas',
      String(options.replicasPerMaster ?? 1),
      '--cluster-yes',
    ]);
  } catch (error) {
    for (const node of nodes) node.child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }

  const alive = (): ClusterNode[] => nodes.filter((node) => node.child.exitCode === null && node.child.signalCode === null);
  const masters = async (): Promise<number[]> => {
    for (const node of alive()) {
      const text = await cli(node.port, 'CLUSTER', 'NODES').catch(() => '');
      if (text === '') continue;
      return text
        .trim()
        .split('\n')
        .map((line) => line.split(' '))
        .filter((fields) => (fields[2] ?? '').includes('master') && !(fields[2] ?? '').includes('fail') && (fields[8] ?? '') !== '')
        .map((fields) => Number((fields[1] ?? '').split('@')[0]!.split(':')[1]));
    }
    throw new Error('no cluster node answers');
  };
  const waitHealthy = async (): Promise<void> => {
    for (;;) {
      const infos = await Promise.all(alive().map((node) => cli(node.port, 'CLUSTER', 'INFO').catch(() => '')));
      const replicasUp = await Promise.all(
        alive().map(async (node) => {
          const info = await cli(node.port, 'INFO', 'replication').catch(() => '');
          return !info.includes('role:slave') || info.includes('master_link_status:up');
        }),
      );
      if (infos.every((info) => info.includes('cluster_state:ok') && info.includes('cluster_slots_ok:16384')) && replicasUp.every(Boolean))
        return;
      await delay(100);
    }
  };
  await waitHealthy();

  const waitExit = async (child: ChildProcess): Promise<void> => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    await new Promise<void>((resolve) => child.once('exit', () => resolve()));
  };
  return {
    dir,
    nodes,
    url: nodes.map((node) => `redis://127.0.0.1:${node.port}`).join(','),
    cli,
    masters,
    masterOf: async (key) => {
      const port = alive()[0]!.port;
      const slot = Number((await cli(port, 'CLUSTER', 'KEYSLOT', key)).trim());
      // CLUSTER NODES: id, host:port@bus, flags, master, ping, pong, epoch, link, slot ranges…
      for (const line of (await cli(port, 'CLUSTER', 'NODES')).trim().split('\n')) {
        const fields = line.split(' ');
        if (!(fields[2] ?? '').includes('master') || (fields[2] ?? '').includes('fail')) continue;
        for (const range of fields.slice(8)) {
          const [from, to] = range.split('-').map(Number);
          if (from !== undefined && slot >= from && slot <= (to ?? from)) return Number((fields[1] ?? '').split('@')[0]!.split(':')[1]);
        }
      }
      throw new Error(`no master serves slot ${slot}`);
    },
    replicasOf: async (masterPort) => {
      const lines = (await cli(alive()[0]!.port, 'CLUSTER', 'NODES'))
        .trim()
        .split('\n')
        .map((line) => line.split(' '));
      const portOf = (fields: string[]): number => Number((fields[1] ?? '').split('@')[0]!.split(':')[1]);
      const master = lines.find((fields) => portOf(fields) === masterPort);
      if (master === undefined) throw new Error(`no node on port ${masterPort}`);
      return lines
        .filter((fields) => fields[3] === master[0] && (fields[2] ?? '').includes('slave') && !(fields[2] ?? '').includes('fail'))
        .map(portOf);
    },
    node: (port) => {
      const found = nodes.find((candidate) => candidate.port === port);
      if (found === undefined) throw new Error(`no node on port ${port}`);
      return found;
    },
    kill: async (port) => {
      const node = nodes.find((candidate) => candidate.port === port);
      if (node === undefined) throw new Error(`no node on port ${port}`);
      node.child.kill('SIGKILL');
      await waitExit(node.child);
    },
    restart: async (port) => {
      const node = nodes.find((candidate) => candidate.port === port);
      if (node === undefined) throw new Error(`no node on port ${port}`);
      node.child = await launch(port, node.dir);
    },
    waitHealthy,
    stop: async () => {
      await Promise.all(
        nodes.map(async (node) => {
          node.child.kill('SIGKILL');
          await waitExit(node.child);
        }),
      );
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
