// Redis Cluster's key → slot mapping (CLUSTER KEYSLOT), so tests and tools can check without a
// cluster that every multi-key operation of the fleet stays in one slot.

/** Number of hash slots in a Redis Cluster. */
export const CLUSTER_SLOTS = 16384;

const TABLE: readonly number[] = (() => {
  const table: number[] = [];
  for (let byte = 0; byte < 256; byte += 1) {
    let crc = byte << 8;
    for (let bit = 0; bit < 8; bit += 1) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
    table.push(crc);
  }
  return table;
})();

/** CRC16/XMODEM of the bytes, the checksum Redis Cluster hashes keys with. */
export function crc16(bytes: Uint8Array): number {
  let crc = 0;
  for (const byte of bytes) crc = ((crc << 8) & 0xffff) ^ (TABLE[((crc >> 8) ^ byte) & 0xff] ?? 0);
  return crc;
}

/**
 * The part of `key` Redis hashes: the text between the first `{` and the next `}` when that is
 * not empty (a hash tag), else the whole key — the rule of the Redis Cluster specification.
 */
export function hashTagOf(key: string): string {
  const open = key.indexOf('{');
  if (open === -1) return key;
  const close = key.indexOf('}', open + 1);
  if (close === -1 || close === open + 1) return key;
  return key.slice(open + 1, close);
}

/** The cluster slot of `key`, as `CLUSTER KEYSLOT` answers (keys are hashed as UTF-8). */
export function keySlot(key: string): number {
  return crc16(new TextEncoder().encode(hashTagOf(key))) % CLUSTER_SLOTS;
}
