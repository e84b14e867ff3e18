import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import type { ComponentProps } from 'react';
import Markdown, { type Components } from 'react-markdown';

/** Links that leave the app (http, https) open in a new tab without handing it this window. */
const isExternal = (href: string | undefined) => Boolean(href && /^https?:/i.test(href));

const COMPONENTS: Components = {
  a: ({ href, children }: ComponentProps<'a'>) =>
    isExternal(href) ? (
      <Link href={href} target="_blank" rel="noopener noreferrer">
        {children}
      </Link>
    ) : (
      <Link href={href}>{children}</Link>
    ),
  // The page's own title is the screen's h1 (PageHeader); the markdown's headings sit below it.
  h1: ({ children }) => (
    <Box component="h2" sx={{ typography: 'h6', mt: 0 }}>
      {children}
    </Box>
  ),
  h2: ({ children }) => (
    <Box component="h3" sx={{ typography: 'subtitle1', fontWeight: 700, mt: 2, mb: 0.5 }}>
      {children}
    </Box>
  ),
  h3: ({ children }) => (
    <Box component="h4" sx={{ typography: 'subtitle2', fontWeight: 700, mt: 2, mb: 0.5 }}>
      {children}
    </Box>
  ),
  // Pictures are left out: a page is text, and an image URL would load from anywhere.
  img: ({ alt }) => <>{alt}</>,
};

/**
 * Renders an organisation page's markdown (CommonMark via react-markdown). Safe by construction:
 * raw HTML in the text is not rendered (no rehype-raw), react-markdown's URL filter drops
 * `javascript:` and other unsafe links, and outside links open with rel="noopener noreferrer".
 * The default export, so the page loads it as its own chunk (React.lazy).
 */
const MarkdownBody = ({ markdown }: { markdown: string }) => (
  <Box
    data-testid="markdown-body"
    sx={{
      typography: 'body1',
      overflowWrap: 'anywhere',
      '& > :first-child': { mt: 0 },
      '& p': { my: 1 },
      '& ul, & ol': { pl: 3, my: 1 },
      '& li': { my: 0.5 },
      '& code': { fontFamily: 'monospace', bgcolor: 'action.hover', px: 0.5, borderRadius: 0.5 },
      '& blockquote': { borderLeft: 4, borderColor: 'divider', m: 0, pl: 2, color: 'text.secondary' },
    }}
  >
    <Markdown components={COMPONENTS}>{markdown}</Markdown>
  </Box>
);

export default MarkdownBody;
