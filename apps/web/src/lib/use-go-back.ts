import { useLocation, useNavigate } from 'react-router';

/**
 * Back within the app when there is history to go back to (keeps the list's filters and page),
 * else to `fallbackHref`, so a deep link's back button never leaves the app.
 */
export const useGoBack = (fallbackHref: string): (() => void) => {
  const navigate = useNavigate();
  const location = useLocation();
  return () => {
    if (location.key !== 'default') navigate(-1);
    else navigate(fallbackHref, { replace: true });
  };
};
