import fs from "node:fs";
import os from "node:os";
import path from "node:path";

/**
 * Where the tests' data directories go: memory (/dev/shm) where the machine has it. A test database
 * is 40 MB written and removed per file; on a disk mounted with online discard (CI's is) removing
 * it costs more than the file's tests (measured: 1.5 s a copy after removals instead of 0.4 s).
 */
export function scratchBase() {
  try {
    fs.accessSync("/dev/shm", fs.constants.W_OK);
    return "/dev/shm";
  } catch {
    return os.tmpdir();
  }
}

/**
 * A new directory in this test file's scratch directory (tests/setup-env.ts), which is removed with
 * everything in it when the file ends: a run leaves no data directories behind (each holds a 40 MB
 * database).
 */
export function scratchDir(prefix: string) {
  return fs.mkdtempSync(path.join(process.env.TEST_SCRATCH_DIR ?? os.tmpdir(), prefix));
}

/**
 * A new data directory in this file's scratch directory; on PGlite its database starts migrated, a
 * copy of the run's template (tests/global-setup.ts), instead of a cluster made and migrated again.
 */
export function dataDir(prefix: string, onPglite = !process.env.DATABASE_URL) {
  const dir = scratchDir(prefix);
  if (onPglite && process.env.PGLITE_TEMPLATE)
    fs.cpSync(process.env.PGLITE_TEMPLATE, path.join(dir, "pgdata"), { recursive: true });
  return dir;
}
