export * from './active-hours.js';
export * from './time-zone.js';
export * from './calendar.js';
