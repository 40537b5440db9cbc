/**
 * @heartbeat-kit/scanners/testing — a scripted `Scanner` for testing code that runs scanners
 * (pools, loops, custom orchestrators) without spawning any tool.
 * @packageDocumentation
 */
export { createScriptedScanner, type ScriptedScanner, type ScriptedScannerOptions, type ScriptStep } from './scripted-scanner.js';
