/** Stops the server started by global-setup. */
export default async function globalTeardown() {
  const pid = Number(process.env.KISHT_E2E_SERVER_PID);
  if (!pid) return;
  try {
    process.kill(pid, 'SIGTERM');
  } catch {
    // already gone
  }
}
