import { AppError, AppErrorCode } from '@kisht/domain/common/errors';
import type { TOrgAppConfig } from '@kisht/domain/orgs/orgs.schema';
import type { DbOrTx } from '../../db/client';
import { findOrganization } from './orgs.repository';

/** White-label configuration of an organisation (spec §1). Throws NOT_FOUND for an unknown id. */
export const getOrgAppConfig = async (db: DbOrTx, orgId: number): Promise<TOrgAppConfig> => {
  const org = await findOrganization(db, orgId);
  if (!org) throw new AppError(AppErrorCode.NOT_FOUND, 'Organisation not found');
  return {
    orgId: org.id,
    orgName: org.name,
    companyName: org.companyName,
    theme: org.theme,
    mainLayout: org.mainLayout,
    features: org.features,
    aiName: org.aiName,
    aiAgentId: org.aiAgentId,
  };
};

/** Organisation settings with defaults applied. */
export const getOrgSettings = async (db: DbOrTx, orgId: number) => {
  const org = await findOrganization(db, orgId);
  return { defaultAnnualRateBps: org?.settings.defaultAnnualRateBps ?? 0 };
};
