import type { TDpdBucket } from '@kisht/domain/collections/collections.rules';
import type { ParseKeys } from 'i18next';

/** The translation key of a bucket's name ("Current", "1–30 days", …). */
export const bucketLabelKey = (bucket: TDpdBucket): ParseKeys => `collections.buckets.${bucket}` as ParseKeys;

/** The translation key of a bucket's short name for narrow columns ("1–30", "90+"). */
export const bucketShortLabelKey = (bucket: TDpdBucket): ParseKeys =>
  `collections.bucketsShort.${bucket}` as ParseKeys;

/** Basis points as a percentage with two decimals ("70.58%"), or "—" without a ratio. */
export const formatBps = (bps: number | null): string => (bps === null ? '—' : `${(bps / 100).toFixed(2)}%`);
