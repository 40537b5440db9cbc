/** The Attractor pipeline scanner: a tolerant DOT reader, the dashboard's rules and the findings. */
export * from './dot-parser.js';
export * from './python-round.js';
export * from './dashboard-schema.js';
export * from './pipeline-dashboard.js';
export * from './pipeline-findings.js';
export * from './pipeline-scanner.js';
export * from './pipeline-owners.js';
