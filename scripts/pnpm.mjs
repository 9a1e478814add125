// How to call pnpm again from a script that pnpm started (`pnpm start`,
// `pnpm test`), whether pnpm is installed globally or came from `npx pnpm`.
export function pnpmCommand() {
  const exec = process.env.npm_execpath;
  if (exec && /pnpm/.test(exec)) {
    return /\.(c|m)?js$/.test(exec) ? [process.execPath, exec] : [exec];
  }
  return ['pnpm'];
}
