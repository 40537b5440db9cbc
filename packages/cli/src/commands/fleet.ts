// `heartbeat-kit fleet`: routes to a subcommand declared on the command kernel, which reads all its
// flags, then checks that Redis answers, then runs it. What each step does lives in fleet/: flags.ts
// and help.ts (the declaration of each subcommand), args.ts (IDs, --redis, --prefix), request.ts (each
// subcommand's flags, checked before any connection), redis-reachability.ts, worker.ts,
// registrations.ts (add, remove, list, status), receipts.ts (history, liveness), acks.ts (ack, unack)
// and pause.ts (pause, resume).
import { err, ok } from 'neverthrow';
import { defineCommand, type DeclaredCommand } from '../cli-kernel/index.js';
import { unknownNameError } from '../errors.js';
import { EXIT } from '../exit-codes.js';
import type { CliIo, Command } from '../io.js';
import { commandClock } from '../wiring/instant.js';
import { fleetAck, fleetUnack } from './fleet/acks.js';
import { readFleetArgs, type FleetArgs } from './fleet/args.js';
import { SUBCOMMANDS, type FleetValues, type Subcommand } from './fleet/flags.js';
import { FLEET_HELP, fleetSpec } from './fleet/help.js';
import type { FleetOutcome } from './fleet/output.js';
import { fleetPause, fleetResume } from './fleet/pause.js';
import { checkLiveness, showHistory } from './fleet/receipts.js';
import { reachRedis } from './fleet/redis-reachability.js';
import { addHeartbeat, listHeartbeats, removeHeartbeat, showStatus } from './fleet/registrations.js';
import { readRequest, type FleetRequest } from './fleet/request.js';
import { runWorker } from './fleet/worker.js';

/** `heartbeat-kit fleet SUB` on the kernel: its flags parsed and refused there, the rest here. */
function fleetSubcommand(sub: Subcommand): DeclaredCommand {
  return defineCommand(fleetSpec(sub), async ({ flags, positionals, io }) => {
    // Each subcommand's flags are a subset of every fleet flag; request.ts reads them by name.
    const values = flags as FleetValues;
    const read = readFleetArgs(sub, values, positionals, io.env);
    if (read.isErr()) return err(read.error);
    const { id, selector, target, shown } = read.value;
    // Every flag and argument is read before Redis is contacted: a typo is a usage error naming the
    // flag, never a connection failure or a worker waiting 10 minutes for a Redis it will not use.
    const request = readRequest(sub, id, values, { cwd: io.cwd, now: commandClock(io, undefined).now() }, selector);
    if (request.isErr()) return err({ exit: EXIT.usage, message: request.error });
    const reached = await reachRedis(io, sub, target, shown);
    if (reached.isErr()) return err(reached.error);
    if (reached.value === 'stopped') return ok(EXIT.ok);
    return dispatch(io, read.value, request.value);
  });
}

/** Every subcommand, declared. */
const FLEET_SUBCOMMANDS = Object.fromEntries(SUBCOMMANDS.map((sub) => [sub, fleetSubcommand(sub)])) as Readonly<
  Record<Subcommand, DeclaredCommand>
>;

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
  return FLEET_SUBCOMMANDS[sub](rest, io);
};

/** Runs a checked request against a Redis that answered. */
function dispatch(io: CliIo, { target, prefix, json }: FleetArgs, request: FleetRequest): Promise<FleetOutcome> {
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
