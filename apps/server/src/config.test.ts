import { describe, expect, it } from 'vitest';
import { loadConfig } from './config';

describe('loadConfig', () => {
  it('gives development defaults: port 8080, PGlite under ./data, embedded broker', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({ PORT: 8080, PGLITE_DATA_DIR: './data/db', NODE_ENV: 'development' });
    expect(config.DATABASE_URL).toBeUndefined();
    expect(config.MQTT_URL).toBeUndefined();
    expect(config.MQTT_SHARED_GROUP).toBe('kisht-server');
  });

  it('refuses production without secrets and an SMS transport, naming each key', () => {
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(/JWT_SECRET.*OTP_PEPPER.*SMS_WEBHOOK_URL/);
  });

  it('names a malformed value', () => {
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(/PORT/);
    expect(() => loadConfig({ DATABASE_URL: 'not a url' })).toThrow(/DATABASE_URL/);
    expect(() => loadConfig({ MQTT_SHARED_GROUP: 'a/b' })).toThrow(/MQTT_SHARED_GROUP/);
  });
});
