export { Button, ButtonLink, ExternalButtonLink, buttonClasses, type ButtonProps, type ButtonLinkProps } from './button.js';
export { BulletList } from './bullet-list.js';
export { Card } from './card.js';
export { cx } from './cx.js';
export { Field } from './field.js';
export { ProgressBar } from './progress-bar.js';
export { Eyebrow, Section } from './section.js';
export { ToastProvider, useToast } from './toast.js';
