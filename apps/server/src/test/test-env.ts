import type { FastifyBaseLogger } from 'fastify';

/**
 * What a production configuration needs besides the broker (secrets, the DPC, an SMS transport),
 * so a test's own production settings fail or pass on their own.
 */
export const PRODUCTION_ENV: Record<string, string> = {
  NODE_ENV: 'production',
  JWT_SECRET: 'a-production-jwt-secret-of-32-characters',
  OTP_PEPPER: 'a-production-otp-pepper',
  SMS_WEBHOOK_URL: 'https://sms.example.com/send',
  DPC_DOWNLOAD_URL: 'https://downloads.example.com/kisht-dpc.apk',
  DPC_SIGNATURE_CHECKSUM: 'n5Q2jv8oXh0cQ0bJz3qB7n6m0S0g3sQd2dY8fHq7s1A',
};

/** A logger that says nothing, for the parts a test builds without an app (the broker). */
export const SILENT_LOG = {
  error: () => {},
  warn: () => {},
  info: () => {},
  debug: () => {},
} as unknown as FastifyBaseLogger;
