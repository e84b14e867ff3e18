import { z } from 'zod';
import {
  ZAdImageQuery,
  ZAdvertisement,
  ZAdvertisementIdQuery,
  ZAdvertisementPreviewQuery,
  ZAdvertisementSendProgress,
  ZAdvertisementSendQuery,
  ZCurrentAdvertisement,
  ZSendAdvertisementRequest,
} from '../advertisements/advertisements.schema';
import { ZBulkPreview } from '../devices/devices.schema';
import { paths } from '../paths';
import { defineRoutes } from './define';

/**
 * The advertisement routes of the wire contract (contract/define.ts; send_advertisement): a
 * retailer's ads, composed, listed and sent to its customers' phones as show_ad commands.
 */
export const advertisementsContract = defineRoutes({
  /**
   * A new advertisement of the actor: multipart `title`, `text` and an optional JPEG/PNG `file`
   * (ZAdvertisementUploadFields; at most 5 MB). Session required.
   */
  upload: { method: 'POST', path: paths.advertisements.upload, body: 'multipart', response: ZAdvertisement },
  /** Your advertisements, newest first, with their sends' delivery counts (session required). */
  list: { method: 'GET', path: paths.advertisements.list, response: z.array(ZAdvertisement) },
  /** The ad the app shows: your newest, or your retailer's newest for a customer; null for none. */
  current: { method: 'GET', path: paths.advertisements.current, response: ZCurrentAdvertisement },
  /** An advertisement's image bytes (its retailer, the parent, or their customers). */
  image: { method: 'GET', path: paths.advertisements.image, query: ZAdvertisementIdQuery, response: 'file' },
  /** How many phones a filter or status would show the advertisement on (nothing is sent). */
  sendPreview: {
    method: 'GET',
    path: paths.advertisements.sendPreview,
    query: ZAdvertisementPreviewQuery,
    response: ZBulkPreview,
  },
  /** Show the advertisement on the chosen customers' phones (a show_ad command each). */
  send: {
    method: 'POST',
    path: paths.advertisements.send,
    body: ZSendAdvertisementRequest,
    response: ZAdvertisementSendProgress,
  },
  /** Delivery progress of an advertisement send. */
  sendStatus: {
    method: 'GET',
    path: paths.advertisements.sendStatus,
    query: ZAdvertisementSendQuery,
    response: ZAdvertisementSendProgress,
  },
  /**
   * The phone fetches an advertisement image by the signed, expiring address of its show_ad command
   * (no session; rate-limited; a wrong or expired signature 403).
   */
  deviceImage: {
    method: 'GET',
    path: paths.advertisements.deviceImage,
    query: ZAdImageQuery,
    response: 'file',
  },
});
