export {
  Button,
  ButtonLink,
  ExternalButtonLink,
  buttonClasses,
  type ButtonProps,
  type ButtonLinkProps,
  type ButtonSize,
  type ButtonVariant,
} from './button';
export { Card, type CardProps, type CardTone } from './card';
export { cx } from './cx';
export { Field, type FieldProps } from './field';
export { ProgressBar, type ProgressBarProps } from './progress-bar';
export { Eyebrow, Section, type SectionProps, type SectionTone } from './section';
export { TOAST_DURATION, ToastProvider, useToast, type ToastOptions, type ToastVariant } from './toast';
