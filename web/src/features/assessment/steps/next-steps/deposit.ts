/** Deposit in dollars for display ($250). */
export const formatDeposit = (cents: number) => `$${(cents / 100).toLocaleString('en-US', { maximumFractionDigits: 0 })}`;
