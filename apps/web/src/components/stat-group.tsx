import type { SvgIconComponent } from '@mui/icons-material';
import Card from '@mui/material/Card';
import CardActionArea from '@mui/material/CardActionArea';
import CardContent from '@mui/material/CardContent';
import Grid from '@mui/material/Grid';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';

/** How a group of figures shows: the organisation's dashboard choice (spec §1 pages per organisation). */
export type TStatLayout = 'cards' | 'list';

/** One figure of a StatGroup. */
export type TStat = {
  /** What the figure is. */
  label: string;
  /** The figure as shown (may be shortened, e.g. `₹1.50L`). */
  value: string;
  /** The full figure (`₹1,50,000.00`), shown as the value's tooltip and accessible label. */
  fullValue?: string | undefined;
  icon: SvgIconComponent;
  color?: 'primary' | 'success' | 'warning' | 'error' | 'info' | 'action';
  /** On the tile or row; its value carries `<testId>-value`. */
  testId: string;
  /** Makes the tile or row a button. */
  onOpen?: (() => void) | undefined;
};

const StatValue = ({ stat, variant }: { stat: TStat; variant: 'h5' | 'subtitle1' }) => {
  const value = (
    <Typography
      variant={variant}
      component="span"
      sx={{ fontWeight: 700, display: 'block' }}
      data-testid={`${stat.testId}-value`}
    >
      {stat.value}
    </Typography>
  );
  if (!stat.fullValue) return value;
  return (
    <Tooltip title={stat.fullValue} enterTouchDelay={0} arrow>
      {value}
    </Tooltip>
  );
};

const StatCard = ({ stat, columns }: { stat: TStat; columns: 2 | 3 }) => {
  const Icon = stat.icon;
  const content = (
    <CardContent sx={{ p: 1.5, '&:last-child': { pb: 1.5 } }}>
      <Icon color={stat.color ?? 'primary'} fontSize="small" sx={{ mb: 0.5 }} />
      <StatValue stat={stat} variant="h5" />
      <Typography variant="body2" color="textSecondary">
        {stat.label}
      </Typography>
    </CardContent>
  );
  return (
    <Grid size={columns === 3 ? 4 : 6}>
      <Card sx={{ height: '100%' }} data-testid={stat.testId}>
        {stat.onOpen ? (
          <CardActionArea sx={{ height: '100%' }} onClick={stat.onOpen}>
            {content}
          </CardActionArea>
        ) : (
          content
        )}
      </Card>
    </Grid>
  );
};

const StatRow = ({ stat }: { stat: TStat }) => {
  const Icon = stat.icon;
  const inner = (
    <>
      <ListItemIcon sx={{ minWidth: 40 }}>
        <Icon color={stat.color ?? 'primary'} />
      </ListItemIcon>
      <ListItemText primary={stat.label} />
      <StatValue stat={stat} variant="subtitle1" />
    </>
  );
  return stat.onOpen ? (
    <ListItemButton divider onClick={stat.onOpen} data-testid={stat.testId}>
      {inner}
    </ListItemButton>
  ) : (
    <ListItem divider data-testid={stat.testId}>
      {inner}
    </ListItem>
  );
};

type TStatGroupProps = {
  title: string;
  stats: TStat[];
  layout: TStatLayout;
  testId: string;
  /** Tiles a row in the 'cards' layout. */
  columns?: 2 | 3;
  /** Shown under the title instead of the figures (a skeleton or an error). */
  placeholder?: ReactNode;
};

/**
 * A titled group of figures (dashboard money, EMIs due) in the organisation's dashboard layout:
 * tiles in a grid ('cards') or rows of one list ('list'). A figure with `onOpen` is a button.
 */
export const StatGroup = ({ title, stats, layout, testId, columns = 2, placeholder }: TStatGroupProps) => (
  <section data-testid={testId} aria-label={title}>
    <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600, mb: 1.5 }}>
      {title}
    </Typography>
    {placeholder ??
      (layout === 'list' ? (
        <Card>
          <List disablePadding aria-label={title}>
            {stats.map((stat) => (
              <StatRow key={stat.testId} stat={stat} />
            ))}
          </List>
        </Card>
      ) : (
        <Grid container spacing={1.5}>
          {stats.map((stat) => (
            <StatCard key={stat.testId} stat={stat} columns={columns} />
          ))}
        </Grid>
      ))}
  </section>
);
