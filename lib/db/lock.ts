import fs from "node:fs";
import path from "node:path";

// One process per embedded data directory. PGlite has no cross-process locking of its own, so a
// second process opening the same directory would corrupt it; this lock file turns that into a
// clear error. A lock left by a dead process is taken over.
export class DataDirLockedError extends Error {
  constructor(
    readonly dataDir: string,
    readonly pid: number,
  ) {
    super(
      `The embedded database in ${dataDir} is in use by process ${pid}. ` +
        "Stop that process, use another DATA_DIR, or set DATABASE_URL to share a PostgreSQL server.",
    );
    this.name = "DataDirLockedError";
  }
}

export function lockFilePath(dataDir: string) {
  return path.join(dataDir, "server.lock");
}

export function readLockOwner(dataDir: string): number | null {
  try {
    const pid = Number(fs.readFileSync(lockFilePath(dataDir), "utf8").trim());
    if (!Number.isInteger(pid) || pid <= 0) return null;
    return isAlive(pid) ? pid : null;
  } catch {
    return null;
  }
}

function isAlive(pid: number) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

export function acquireDataDirLock(dataDir: string): () => void {
  makePrivate(dataDir);
  const file = lockFilePath(dataDir);
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      fs.writeFileSync(file, String(process.pid), { flag: "wx", mode: 0o600 });
      let released = false;
      const release = () => {
        if (released) return;
        released = true;
        // Closed before the process ends: its exit listener goes too (a process that opens and closes
        // many databases, a test file or the bench, would gather one per database).
        process.off("exit", release);
        try {
          if (fs.readFileSync(file, "utf8").trim() === String(process.pid)) fs.unlinkSync(file);
        } catch {
          /* already gone */
        }
      };
      process.once("exit", release);
      return release;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      const owner = readLockOwner(dataDir);
      if (owner !== null) throw new DataDirLockedError(dataDir, owner);
      // Stale lock from a process that died: remove it and try again.
      try {
        fs.unlinkSync(file);
      } catch {
        /* raced with another process */
      }
    }
  }
  throw new Error(`Could not lock ${dataDir}`);
}

/**
 * The data directory holds the whole database (password hashes, encrypted fields, the WAL) and the
 * generated keys: it is created 0700, and what an older version left readable by others is closed
 * (group and other bits removed, recursively). Files this process creates from now on are private
 * too (umask 077): PGlite creates its files with the process's umask.
 */
export function makePrivate(dataDir: string) {
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  process.umask(0o077);
  const close = (p: string) => {
    const stat = fs.lstatSync(p);
    if (stat.isSymbolicLink()) return;
    if (stat.mode & 0o077) fs.chmodSync(p, stat.mode & 0o700);
    if (stat.isDirectory()) for (const name of fs.readdirSync(p)) close(path.join(p, name));
  };
  // The directory itself, unless it is a shared one (sticky, like /tmp): then only our own files.
  const top = fs.statSync(dataDir);
  if (!(top.mode & 0o1000) && top.mode & 0o077) fs.chmodSync(dataDir, top.mode & 0o700);
  // The data directory is chosen at run time (DATA_DIR): not a file the build traces into the output
  // (without the ignore marks, Turbopack warned that it would trace the whole project).
  for (const name of ["pgdata", "secrets.json"]) {
    const file = path.join(/*turbopackIgnore: true*/ dataDir, name);
    if (fs.existsSync(/*turbopackIgnore: true*/ file)) close(file);
  }
}
