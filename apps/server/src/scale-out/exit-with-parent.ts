/**
 * Preloaded (`--import`) into the server processes the scale-out test spawns with an IPC channel:
 * when the test process goes away without stopping them (a crash, a killed worker), the channel
 * closes and the server exits too, instead of living on in the broker's shared subscription group
 * and taking device events meant for the next run. The channel does not keep the server alive.
 */
process.on('disconnect', () => process.exit(1));
process.channel?.unref();
