import { createApi } from '@reduxjs/toolkit/query/react';
import { API_BASE_URL } from '../config';
import { i18n } from '../i18n';
import { createBaseQuery } from './base-query';

let sessionGoneHandler: () => void = () => {};

/** The app registers where to go when a call answers 511 (the login route). */
export const setSessionGoneHandler = (handler: () => void): void => {
  sessionGoneHandler = handler;
};

/** Tag types; cache keys and tags carry every parameter sent (organisation, filters, page). */
export const TAG_TYPES = ['OrgConfig', 'Dashboard', 'Customer', 'Product'] as const;
/** Tags of data that belongs to the signed-in person (everything but the public org config). */
const SESSION_SCOPED_TAGS = ['Dashboard', 'Customer', 'Product'] as const;

/**
 * The app's one RTK Query api (design §2). Features add endpoints with `api.injectEndpoints` in
 * their `<feature>-api.ts`.
 */
export const api = createApi({
  reducerPath: 'api',
  baseQuery: createBaseQuery({
    baseUrl: API_BASE_URL,
    onSessionGone: () => sessionGoneHandler(),
    fallbackMessage: () => i18n.t('errors.somethingWentWrong'),
  }),
  tagTypes: TAG_TYPES,
  endpoints: () => ({}),
});

/**
 * Drops the previous session's cached data when someone signs in, so nothing leaks from one
 * person to the next. Dispatched before the token is stored, while no protected screen is
 * mounted: invalidated entries without subscribers are removed, not refetched. The public org
 * config is kept, so the theme does not flash.
 */
export const purgeSessionCache = () => api.util.invalidateTags([...SESSION_SCOPED_TAGS]);
