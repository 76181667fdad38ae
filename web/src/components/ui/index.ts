export { Button, ButtonLink, ExternalButtonLink, buttonClasses, type ButtonProps, type ButtonLinkProps } from './button';
export { Card } from './card';
export { cx } from './cx';
export { Field } from './field';
export { ProgressBar } from './progress-bar';
export { Eyebrow, Section } from './section';
export { ToastProvider, useToast } from './toast';
