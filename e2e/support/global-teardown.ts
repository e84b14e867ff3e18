/** Stops the server and the MDM fakes started by global-setup. */
export default async function globalTeardown() {
  for (const name of ['KISHT_E2E_SERVER_PID', 'KISHT_E2E_FAKE_MDM_PID']) {
    const pid = Number(process.env[name]);
    if (!pid) continue;
    try {
      process.kill(pid, 'SIGTERM');
    } catch {
      // already gone
    }
  }
}
