export * from './active-hours.js';
