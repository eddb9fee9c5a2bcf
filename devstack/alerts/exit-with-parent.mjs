// Preloaded into a child process that cannot watch its parent itself (`node --import` this file,
// with stdin a pipe from the parent): when the parent is gone, by exit, crash or SIGKILL, its end
// of the pipe closes and the child exits instead of holding its ports (MailDev, maildev.ts).
import process from "node:process";

const quit = () => process.exit(0);
process.stdin.on("end", quit);
process.stdin.on("close", quit);
process.stdin.resume();
