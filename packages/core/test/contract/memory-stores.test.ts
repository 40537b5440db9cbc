import { createMemoryLockStore, createMemoryStateStore } from '../../src/testing/index.js';
import { lockStoreContract } from './lock-store-contract.js';
import { stateStoreContract } from './state-store-contract.js';

stateStoreContract('memory', () => createMemoryStateStore());
lockStoreContract('memory', () => createMemoryLockStore());
lockStoreContract('memory with fencing', () => createMemoryLockStore({ fencing: true }));
