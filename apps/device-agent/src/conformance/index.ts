/**
 * The device protocol conformance suite: `runConformanceChecks(adapter, options)` against any
 * device, the adapter of the reference DeviceAgent, and the server's side it plays (broker, server
 * simulator, enrol endpoint). See checks.ts; the command line is cli.ts (`kisht-conformance`).
 */
export {
  conformanceCheckNames,
  formatConformanceResults,
  runConformanceChecks,
  SAMPLE_ARGS,
  type TConformanceCheckResult,
  type TConformanceCredentials,
  type TConformanceOptions,
  type TDeviceAdapter,
} from './checks';
export { createDeviceAgentAdapter, type TDeviceAgentAdapter } from './device-agent-adapter';
export { startEnrolEndpoint, type TEnrolEndpoint } from './enrol-endpoint';
export {
  commandMessage,
  startConformanceBroker,
  type TConformanceBroker,
  type TConformanceBrokerOptions,
  type TEventRecord,
  type TSentRecord,
  uuidV7,
} from './harness';
