// The setters of HEARTBEAT.md's `## Delivery` section: where each priority class's report goes.
import type { Setter } from './heartbeat-setting-draft.js';

/** What a route's sink may be: the `--sink` forms (the CLI checks the rest of the value). */
export const ROUTE_SINK_PATTERN = /^(?:stdout|file:\S.*|webhook:https?:\/\/\S+|command:\S.*|inbox:\S.*|tmux:\S+)$/;

/** What a ping target may be: an http(s) URL, optionally behind `cronitor:` (the CLI checks the rest). */
export const PING_TARGET_PATTERN = /^(?:cronitor:)?https?:\/\/\S+$/i;

/** `Ping`: the off-host monitor pinged at each slot's start and end (`--ping` replaces it). */
export const ping: Setter = (value, { draft }) => {
  const target = value.replace(/^`([^`]*)`$/, '$1').trim();
  if (!PING_TARGET_PATTERN.test(target))
    return {
      message: 'is not a ping URL.',
      fix: 'write the monitor\'s URL, e.g. "- Ping: https://hc-ping.com/<check-uuid>" or "- Ping: cronitor:https://cronitor.link/p/<key>/heartbeat".',
    };
  draft.ping = target;
  return 'ping';
};

/** `Immediate` / `Advisory` / `Normal` / `Default`: a sink spec (`stdout`, `file:PATH`, `webhook:URL`, `command:CMD`, `inbox:DIR`, `tmux:SESSION[:WINDOW.PANE]`). */
export function route(priority: 'immediate' | 'advisory' | 'normal' | 'default'): Setter {
  return (value, { draft }) => {
    const spec = value.replace(/^`([^`]*)`$/, '$1').trim();
    if (!ROUTE_SINK_PATTERN.test(spec))
      return {
        message: 'is not a sink.',
        fix: 'write stdout, file:PATH, webhook:https://host/path, command:CMD, inbox:DIR or tmux:SESSION[:WINDOW.PANE], e.g. "- Immediate: webhook:https://ntfy.example/phone".',
      };
    draft.delivery = { ...draft.delivery, [priority]: spec };
    return `delivery.${priority}`;
  };
}
