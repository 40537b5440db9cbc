// `heartbeat-kit fleet`: reads the subcommand and all its flags, then checks that Redis answers, then
// runs it. What each step does lives in fleet/: args.ts (argv, --redis, --prefix), request.ts (each
// subcommand's flags, checked before any connection), redis-reachability.ts, worker.ts,
// registrations.ts (add, remove, list, status), receipts.ts (history, liveness), acks.ts (ack, unack), pause.ts (pause, resume); the --help text is
// in fleet/help.ts.
import { unknownNameError } from '../errors.js';
import { EXIT } from '../exit-codes.js';
import type { CliIo, Command } from '../io.js';
import { readFleetArgs, SUBCOMMANDS, type FleetArgs } from './fleet/args.js';
import { FLEET_HELP, FLEET_SUBCOMMAND_HELP } from './fleet/help.js';
import { usageError } from './fleet/output.js';
import { checkLiveness, showHistory } from './fleet/receipts.js';
import { reachRedis } from './fleet/redis-reachability.js';
import { addHeartbeat, listHeartbeats, removeHeartbeat, showStatus } from './fleet/registrations.js';
import { commandClock } from '../wiring/instant.js';
import { readRequest, type FleetRequest } from './fleet/request.js';
import { runWorker } from './fleet/worker.js';
import { fleetAck, fleetUnack } from './fleet/acks.js';
import { fleetPause, fleetResume } from './fleet/pause.js';

/** `heartbeat-kit fleet`: BullMQ workers and the fleet's registrations. */
export const fleetCommand: Command = async (argv, io) => {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    io.stdout(FLEET_HELP);
    return name === undefined ? EXIT.usage : EXIT.ok;
  }
  const sub = SUBCOMMANDS.find((candidate) => candidate === name);
  if (sub === undefined) {
    unknownNameError(io, 'fleet', 'subcommand', name, SUBCOMMANDS);
    return EXIT.usage;
  }
  const read = readFleetArgs(sub, rest, io.env);
  if (read.kind === 'help') {
    io.stdout(FLEET_SUBCOMMAND_HELP[sub]);
    return EXIT.ok;
  }
  if (read.kind === 'usage') return usageError(io, sub, read.message);
  // Every flag and argument is read before Redis is contacted: a typo is a usage error naming the
  // flag, never a connection failure or a worker waiting 10 minutes for a Redis it will not use.
  const request = readRequest(
    sub,
    read.args.id,
    read.args.values,
    { cwd: io.cwd, now: commandClock(io, undefined).now() },
    read.args.selector,
  );
  if (request.isErr()) return usageError(io, sub, request.error);
  const unreachable = await reachRedis(io, sub, read.args.target, read.args.shown);
  if (unreachable !== undefined) return unreachable;
  return dispatch(io, read.args, request.value);
};

/** Runs a checked request against a Redis that answered. */
function dispatch(io: CliIo, { target, prefix, json }: FleetArgs, request: FleetRequest): Promise<number> {
  const at = { io, target, prefix, json };
  switch (request.sub) {
    case 'worker':
      return runWorker(io, target, prefix, request.worker, json);
    case 'add':
      return addHeartbeat(at, request.heartbeat);
    case 'remove':
      return removeHeartbeat(at, request.id);
    case 'list':
      return listHeartbeats(at);
    case 'status':
      return showStatus(at);
    case 'history':
      return showHistory(at, request);
    case 'liveness':
      return checkLiveness(at, request);
    case 'ack':
      return fleetAck(at, request.ack);
    case 'unack':
      return fleetUnack(at, request.id, request.selector);
    case 'pause':
      return fleetPause(at, request.id, request.pause, request.rehearsal);
    case 'resume':
      return fleetResume(at, request.id);
  }
}
