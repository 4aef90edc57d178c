#!/usr/bin/env node
import { exitProcess } from "./exit-process.js";
import { runCommandLine } from "./run.js";

// Exit explicitly: author code may hold timers or sockets that would keep the process alive.
runCommandLine(process.argv.slice(2)).then(exitProcess);
