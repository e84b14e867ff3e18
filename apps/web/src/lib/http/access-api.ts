import type { TContractData } from '@kisht/domain/contract/define';
import type { devicesContract } from '@kisht/domain/contract/devices';
import { DEFAULT_LOCK_ACCESS, DEFAULT_USER_ACCESS } from '@kisht/domain/devices/access-defaults';
import type { TLockAccess, TUserAccess } from '@kisht/domain/devices/devices.schema';
import { paths } from '@kisht/domain/paths';
import { api } from './api';
import { contractRequest } from './contract-request';

type TUserAccessRoute = (typeof devicesContract)['userAccess'];
type TLockAccessRoute = (typeof devicesContract)['lockAccess'];

/**
 * The signed-in person's access flags (spec §6): user access (api/user/user_access) and lock
 * access (api/config/access-config). Screens read them through useUserAccess and useLockAccess,
 * which fall back to the spec §6 defaults until (or unless) the server's values have loaded.
 */
export const accessApi = api.injectEndpoints({
  endpoints: (build) => ({
    getUserAccess: build.query<TContractData<TUserAccessRoute>, void>({
      query: () => contractRequest<TUserAccessRoute>({ path: paths.users.userAccess, method: 'GET' }),
      providesTags: [{ type: 'Access', id: 'USER' }],
    }),
    getLockAccess: build.query<TContractData<TLockAccessRoute>, void>({
      query: () => contractRequest<TLockAccessRoute>({ path: paths.users.lockAccess, method: 'GET' }),
      providesTags: [{ type: 'Access', id: 'LOCK' }],
    }),
  }),
});

/** Flags the screen can act on, and whether they are the server's (not the defaults). */
export type TAccessState<TFlags> = { flags: TFlags; isLoaded: boolean };

/**
 * Spec §6 user access: the server's flags over the defaults ('1' allowed, '0' denied). `skip`
 * leaves the server alone (a customer user has no retailer flags to read) and gives the defaults.
 */
export const useUserAccess = (options: { skip?: boolean } = {}): TAccessState<TUserAccess> => {
  const { data } = accessApi.useGetUserAccessQuery(undefined, { skip: options.skip ?? false });
  return { flags: { ...DEFAULT_USER_ACCESS, ...data }, isLoaded: data !== undefined };
};

/** Spec §6 lock access: the server's flags over the defaults ('1' allowed, '0' denied). */
export const useLockAccess = (): TAccessState<TLockAccess> => {
  const { data } = accessApi.useGetLockAccessQuery();
  return { flags: { ...DEFAULT_LOCK_ACCESS, ...data }, isLoaded: data !== undefined };
};
