/** Publishes commands to devices and delivers device events to the server (design §5). */
export type DeviceBus = {
  /** Publishes with QoS 1; resolves once the broker has taken the message. */
  publish: (topic: string, payload: string) => Promise<void>;
  /** Registers the handler for every device event (topic `kisht/v1/d/+/evt`). */
  subscribeEvents: (handler: (topic: string, payload: Buffer) => Promise<void>) => Promise<void>;
  close: () => Promise<void>;
  /**
   * Ends the device's live connection, if this broker holds it (the embedded one does; an external
   * broker's connections are its own: its authentication refuses the revoked secret at the next
   * connect). Resolves true when a connection was ended.
   */
  disconnect?: (deviceId: string) => Promise<boolean>;
};
