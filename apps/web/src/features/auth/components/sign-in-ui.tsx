import type { ButtonHTMLAttributes, CSSProperties, ReactNode, Ref } from 'react';
import { useId } from 'react';
import type { TSignInBrand } from '../sign-in-env';
import css from './sign-in.module.css';

/** The white label as the CSS variables of sign-in.module.css. */
const brandStyle = (brand: TSignInBrand) =>
  ({
    '--k-primary': brand.primaryColor,
    '--k-secondary': brand.secondaryColor,
    '--k-font': brand.fontFamily,
  }) as CSSProperties;

/**
 * The frame of the sign-in screens: the organisation's brand (logo or initial, org and company
 * name, tagline) above a card with the screen's title and subtitle. No MUI (issue 28).
 */
export const SignInFrame = ({
  brand,
  appName,
  companyLine,
  tagline,
  title,
  subtitle,
  children,
}: {
  brand: TSignInBrand;
  /** Shown when the organisation has no name (its config could not be had). */
  appName: string;
  /** "by <company>", or null. */
  companyLine: string | null;
  tagline: string;
  title: string;
  subtitle: ReactNode;
  children: ReactNode;
}) => {
  const orgName = brand.orgName || appName;
  return (
    <main className={css.frame} style={brandStyle(brand)}>
      <header className={css.brand}>
        <div className={css.logo} aria-hidden={brand.logoUrl ? undefined : true}>
          {brand.logoUrl ? <img src={brand.logoUrl} alt={orgName} /> : orgName.charAt(0)}
        </div>
        <p className={css.orgName} data-testid="org-name">
          {orgName}
        </p>
        {companyLine ? (
          <p className={css.small} data-testid="company-name">
            {companyLine}
          </p>
        ) : null}
        <p className={css.small}>{tagline}</p>
      </header>
      <section className={css.card}>
        <h1 className={css.title}>{title}</h1>
        <div className={css.subtitle}>{subtitle}</div>
        {children}
      </section>
    </main>
  );
};

/**
 * A sign-in form: fields and buttons stacked, under the refusal of its last call (`failure`, or
 * null); submitting runs `onSubmit` without a page load.
 */
export const SignInForm = ({
  onSubmit,
  failure,
  children,
}: {
  onSubmit: () => void;
  failure: string | null;
  children: ReactNode;
}) => (
  <form
    className={css.form}
    noValidate
    onSubmit={(event) => {
      event.preventDefault();
      onSubmit();
    }}
  >
    {failure ? (
      <SignInNotice severity="error" testId="sign-in-error">
        {failure}
      </SignInNotice>
    ) : null}
    {children}
  </form>
);

export type TSignInFieldProps = {
  label: string;
  value: string;
  /** What was typed, as the field keeps it (the caller filters digits). */
  onChange: (value: string) => void;
  onBlur?: () => void;
  /** The text under the field (translated, or the server's words); null without an error. */
  error: string | null;
  testId: string;
  /** A code (OTP, MPIN): digits spaced and centred. */
  isCode?: boolean;
  /** Shown before the value (the mobile's +91). */
  prefix?: string;
  type?: 'tel' | 'password' | 'text';
  autoComplete: string;
  autoFocus?: boolean;
  name?: string;
  inputRef?: Ref<HTMLInputElement>;
};

/** A labelled, required text field with its help line (the error, or a blank line). */
export const SignInField = ({
  label,
  value,
  onChange,
  onBlur,
  error,
  testId,
  isCode = false,
  prefix,
  type = 'text',
  autoComplete,
  autoFocus,
  name,
  inputRef,
}: TSignInFieldProps) => {
  const id = useId();
  return (
    <div className={error ? `${css.field} ${css.invalid}` : css.field}>
      <label className={css.label} htmlFor={id}>
        {label} *
      </label>
      <div className={css.box}>
        {prefix ? <span className={css.prefix}>{prefix}</span> : null}
        <input
          id={id}
          ref={inputRef}
          className={isCode ? `${css.input} ${css.code}` : css.input}
          name={name}
          type={type}
          inputMode="numeric"
          pattern="[0-9]*"
          autoComplete={autoComplete}
          // biome-ignore lint/a11y/noAutofocus: each sign-in screen has one field to start typing in.
          autoFocus={autoFocus}
          required
          aria-invalid={error ? true : undefined}
          aria-describedby={`${id}-help`}
          value={value}
          onChange={(event) => onChange(event.target.value)}
          onBlur={onBlur}
          data-testid={testId}
        />
      </div>
      <p className={css.help} id={`${id}-help`}>
        {error ?? ' '}
      </p>
    </div>
  );
};

type TButtonProps = Omit<ButtonHTMLAttributes<HTMLButtonElement>, 'className'> & {
  variant?: 'contained' | 'outlined' | 'text';
  /** Busy: a spinner and no second press. */
  isLoading?: boolean;
  testId: string;
  icon?: ReactNode;
};

/** A button of the sign-in screens (contained, outlined or text), busy while `isLoading`. */
export const SignInButton = ({
  variant = 'text',
  isLoading = false,
  testId,
  icon,
  children,
  disabled,
  type = 'button',
  ...rest
}: TButtonProps) => (
  <button
    {...rest}
    type={type}
    className={variant === 'text' ? css.button : `${css.button} ${css[variant]}`}
    disabled={disabled || isLoading}
    aria-busy={isLoading || undefined}
    data-testid={testId}
  >
    {isLoading ? <span className={css.spinner} aria-hidden /> : icon}
    {children}
  </button>
);

/** A notice on a sign-in screen; an error or warning is announced (role alert), the others politely. */
export const SignInNotice = ({
  severity,
  testId,
  children,
}: {
  severity: 'info' | 'warning' | 'error' | 'success';
  testId?: string;
  children: ReactNode;
}) => (
  <p
    className={`${css.notice} ${css[severity]}`}
    role={severity === 'error' || severity === 'warning' ? 'alert' : 'status'}
    data-testid={testId}
  >
    {children}
  </p>
);

/** A row of buttons, spread across the card. */
export const SignInRow = ({ children }: { children: ReactNode }) => <div className={css.row}>{children}</div>;

/** A line between the form's parts. */
export const SignInDivider = () => <hr className={css.divider} />;

/** Small print under the form. */
export const SignInCaption = ({ testId, children }: { testId?: string; children: ReactNode }) => (
  <p className={css.caption} data-testid={testId}>
    {children}
  </p>
);

/**
 * The service worker's prompt on the sign-in screens (spec §2, §4, as components/reload-prompt.tsx
 * says it in the app): `message`, Reload when an update waits (`onReload`), and Close.
 */
export const SignInToast = ({
  message,
  reloadLabel,
  closeLabel,
  onReload,
  onClose,
}: {
  message: string;
  reloadLabel: string;
  closeLabel: string;
  onReload: (() => void) | null;
  onClose: () => void;
}) => (
  <div className={css.toast} role="status" data-testid="reload-prompt">
    <span data-testid="reload-prompt-message">{message}</span>
    {onReload ? (
      <button type="button" className={css.toastButton} onClick={onReload} data-testid="reload-prompt-reload">
        {reloadLabel}
      </button>
    ) : null}
    <button
      type="button"
      className={`${css.toastButton} ${css.toastClose}`}
      onClick={onClose}
      data-testid="reload-prompt-close"
    >
      {closeLabel}
    </button>
  </div>
);
