import type { TConfig } from '../config';
import type { Db } from '../db/client';
import type { DeviceEventRecorder } from '../modules/devices/device-events.service';
import type { CommandDispatcher } from '../modules/devices/device-outbox.service';
import type { SmsOutbox } from '../modules/sms/sms.service';
import type { WhatsAppTransport } from '../modules/whatsapp/whatsapp.transport';
import type { JobRunners } from './job-runners';

/** What every module gets from buildApp: the database, config and shared services. */
export type AppContext = {
  db: Db;
  config: TConfig;
  /** Queues and delivers text messages (the SMS outbox). */
  sms: SmsOutbox;
  /** Sends WhatsApp template messages (payment reminders, issue 29). */
  whatsapp: WhatsAppTransport;
  /** Sends commands and policies to devices (the outbox). */
  dispatcher: CommandDispatcher;
  /** Records what devices report (acks, state, reports); answers hellos through the dispatcher. */
  deviceEvents: DeviceEventRecorder;
  /** The periodic jobs by name, each runnable at a given instant (the job clock). */
  jobs: JobRunners;
};
