import type { TNetworkNode } from '@kisht/domain/network/network.schema';
import ArrowUpwardIcon from '@mui/icons-material/ArrowUpward';
import ChevronRightIcon from '@mui/icons-material/ChevronRight';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardActionArea from '@mui/material/CardActionArea';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { TFunction } from 'i18next';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { KEY_STOCK_COLOR } from '../../../components/key-stock-color';
import { LoadError } from '../../../components/load-error';
import { appTypeName } from '../../../lib/app-type-name';
import { formatMobile } from '../../../lib/format';
import { NETWORK_NODE_PARAM } from '../../../lib/paths';
import { useGetNetworkQuery } from '../network-api';

/** The node id in the URL's NETWORK_NODE_PARAM, or undefined (the signed-in parent's own children). */
const nodeOf = (params: URLSearchParams): number | undefined => {
  const value = Number(params.get(NETWORK_NODE_PARAM) ?? '');
  return Number.isSafeInteger(value) && value > 0 ? value : undefined;
};

/**
 * What a node is, in words: a distributor by its level (level 1 of two or more is the
 * super-distributor), a retailer, a mini-retailer.
 */
const typeLabel = (t: TFunction, node: TNetworkNode, levels: number): string => {
  if (node.userType !== 'distributor') return t(`network.type.${node.userType}`);
  if (node.level === 1 && levels >= 2) return t('network.type.superDistributor');
  return t('network.type.distributor', { level: node.level ?? 1 });
};

/** One node: its names, type, key stock per app type (coloured and counted) and how many are below it. */
const NodeCard = ({
  node,
  levels,
  onOpen,
}: {
  node: TNetworkNode;
  levels: number;
  onOpen: (() => void) | null;
}) => {
  const { t } = useTranslation();
  const body: ReactNode = (
    <CardContent>
      <Stack direction="row" sx={{ justifyContent: 'space-between', alignItems: 'flex-start', gap: 1 }}>
        <Stack sx={{ minWidth: 0 }}>
          <Typography variant="subtitle1" sx={{ fontWeight: 600 }} noWrap>
            {node.shopName ?? node.name}
          </Typography>
          <Typography variant="body2" color="text.secondary" noWrap>
            {node.shopName && node.shopName !== node.name ? `${node.name} · ` : ''}
            {formatMobile(node.mobile)}
          </Typography>
        </Stack>
        <Chip size="small" variant="outlined" label={typeLabel(t, node, levels)} />
      </Stack>
      <Stack direction="row" spacing={0.5} useFlexGap sx={{ flexWrap: 'wrap', mt: 1 }}>
        {node.keys.length === 0 ? (
          <Chip size="small" color="error" label={t('network.noKeys')} data-level="low" />
        ) : (
          node.keys.map((key) => (
            <Chip
              key={key.appType}
              size="small"
              color={KEY_STOCK_COLOR[key.level]}
              label={`${appTypeName(t, key.appType)}: ${key.balance}`}
              data-level={key.level}
              data-testid={`network-node-${node.id}-keys-${key.appType}`}
            />
          ))
        )}
        {!node.isActive && <Chip size="small" label={t('network.inactive')} />}
      </Stack>
      {onOpen && (
        <Stack direction="row" sx={{ alignItems: 'center', mt: 1, color: 'primary.main' }}>
          <Typography variant="body2">{t('network.children', { count: node.childCount })}</Typography>
          <ChevronRightIcon fontSize="small" />
        </Stack>
      )}
    </CardContent>
  );
  return (
    <Card variant="outlined" data-testid={`network-node-${node.id}`}>
      {onOpen ? <CardActionArea onClick={onOpen}>{body}</CardActionArea> : body}
    </Card>
  );
};

/**
 * The nodes below the signed-in parent (issue 30), or below the node in the URL's `node` parameter
 * (one of its subtree; the other parameters of the URL are kept): each with its key stock in the
 * traffic-light colours and, when it has nodes below it, a way down. "Up" goes back one level.
 */
export const NetworkNodes = () => {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [searchParams, setSearchParams] = useSearchParams();
  const node = nodeOf(searchParams);
  const { data, isLoading, isError, error, refetch } = useGetNetworkQuery(node);
  const open = (id: number) => {
    const next = new URLSearchParams(searchParams);
    next.set(NETWORK_NODE_PARAM, String(id));
    setSearchParams(next);
  };

  if (isLoading) return <Skeleton variant="rounded" height={160} />;
  if (isError || !data)
    return <LoadError message={error?.message ?? t('network.loadFailed')} onRetry={refetch} />;
  return (
    <Stack spacing={1.5} data-testid="network-nodes">
      {data.parent && (
        <Stack direction="row" sx={{ alignItems: 'center', justifyContent: 'space-between', gap: 1 }}>
          <Typography variant="subtitle2" data-testid="network-parent">
            {t('network.below', { name: data.parent.shopName ?? data.parent.name })}
          </Typography>
          <Button size="small" startIcon={<ArrowUpwardIcon />} onClick={() => navigate(-1)}>
            {t('network.up')}
          </Button>
        </Stack>
      )}
      {data.children.length === 0 ? (
        <Typography color="text.secondary" data-testid="network-empty">
          {t('network.empty')}
        </Typography>
      ) : (
        data.children.map((child) => (
          <NodeCard
            key={child.id}
            node={child}
            levels={data.distributorLevels}
            onOpen={child.childCount > 0 ? () => open(child.id) : null}
          />
        ))
      )}
    </Stack>
  );
};
