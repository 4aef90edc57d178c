import { lstat as lstatCallback, type Stats, stat as statCallback } from "node:fs";
import { lstat, realpath, stat } from "node:fs/promises";
import { dirname, join, relative, sep } from "node:path";
import { isInsideDir } from "./inside-dir.js";
import type { LoadWarning } from "./problems.js";

const OUTSIDE =
  "is a symbolic link that leads outside the server directory; skipped (only links whose target stays inside the server directory are followed)";
const CYCLE = "is a symbolic link to a folder that contains it (a cycle); skipped";
const BROKEN = "is a symbolic link to nothing (its target does not exist); skipped";

type StatCallback = (error: NodeJS.ErrnoException | null, stats: Stats) => void;

/**
 * Which symbolic links one scan of a server directory follows: those whose
 * real target stays inside the directory and is not a folder that contains the
 * link. Every other link is left out, with a warning naming it and why.
 */
export class LinkRule {
  /** The links left out, by path relative to the server directory. */
  private readonly skipped = new Map<string, string>();
  /** The links followed: path relative to the server directory → real path, relative too. */
  readonly followed = new Map<string, string>();
  private readonly realPaths = new Map<string, Promise<string>>();

  /** `root` is the server directory's real path. */
  constructor(private readonly root: string) {}

  get warnings(): LoadWarning[] {
    return [...this.skipped].map(([file, message]) => ({ file, message }));
  }

  /**
   * fast-glob's `stat`, which it calls for each link it meets: the target's
   * stats when the link may be followed; otherwise the link's own, so that
   * fast-glob neither lists it as a file nor walks into it.
   */
  readonly stat = (path: string, callback: StatCallback): void => {
    // A folder above it that vanished while the scan ran: not followed.
    this.follows(path).then(
      (follows) => (follows ? statCallback : lstatCallback)(path, callback),
      () => lstatCallback(path, callback),
    );
  };

  /** True when `path` (absolute, under the server directory) is no link, or a link this rule follows. */
  async follows(path: string): Promise<boolean> {
    const file = this.relative(path);
    if (this.followed.has(file)) return true;
    if (this.skipped.has(file)) return false;
    if (!(await isLink(path))) return true;
    let real: string;
    let isDirectory: boolean;
    try {
      real = await realpath(path);
      isDirectory = (await stat(real)).isDirectory();
    } catch {
      return this.skip(file, BROKEN);
    }
    if (!isInsideDir(this.root, real)) return this.skip(file, OUTSIDE);
    if (isDirectory) {
      const ancestors = await Promise.all(this.foldersAbove(path).map((dir) => this.realPath(dir)));
      if (ancestors.some((ancestor) => isInsideDir(real, ancestor))) return this.skip(file, CYCLE);
    }
    this.followed.set(file, this.relative(real));
    return true;
  }

  /** True when every link on the way from the server directory to `path` (relative) is followed. */
  async reaches(path: string): Promise<boolean> {
    let prefix = this.root;
    for (const segment of path.split("/")) {
      prefix = join(prefix, segment);
      if (!(await this.follows(prefix))) return false;
    }
    return true;
  }

  private skip(file: string, message: string): false {
    this.skipped.set(file, message);
    return false;
  }

  private relative(path: string): string {
    return relative(this.root, path).split(sep).join("/");
  }

  /** The server directory and every folder between it and `path`. */
  private foldersAbove(path: string): string[] {
    const folders: string[] = [];
    for (let dir = dirname(path); isInsideDir(this.root, dir); dir = dirname(dir)) {
      folders.push(dir);
      if (dir === this.root) break;
    }
    return folders;
  }

  private realPath(dir: string): Promise<string> {
    let real = this.realPaths.get(dir);
    if (real === undefined) {
      real = realpath(dir);
      this.realPaths.set(dir, real);
    }
    return real;
  }
}

async function isLink(path: string): Promise<boolean> {
  try {
    return (await lstat(path)).isSymbolicLink();
  } catch {
    return false;
  }
}
