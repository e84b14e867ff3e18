/**
 * The device protocol conformance suite: `runConformanceChecks(adapter, options)` against any
 * device, and the adapter of the reference DeviceAgent. See checks.ts.
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
export {
  commandMessage,
  startConformanceBroker,
  type TConformanceBroker,
  type TEventRecord,
  uuidV7,
} from './harness';
