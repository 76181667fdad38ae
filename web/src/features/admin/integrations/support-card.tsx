/** Setup tips and use cases under the cards. */
export function SupportCard() {
  return (
    <section aria-labelledby="integrations-support" className="mt-8 rounded-3xl border border-line bg-sand p-6">
      <h2 id="integrations-support" className="font-serif text-2xl tracking-tight text-ink">
        Need help connecting?
      </h2>
      <div className="mt-4 grid gap-6 md:grid-cols-2">
        <div>
          <h3 className="font-semibold text-ink">Setup tips</h3>
          <ul className="mt-2 list-disc space-y-1 pl-5 text-sm text-ink">
            <li>Turn a card on, paste its URL or key, then Save.</li>
            <li>Webhook URLs and API keys are stored on the server and shown masked afterwards.</li>
            <li>Verify automation POSTs with the signing secret: x-hf-signature is sha256= and the HMAC-SHA256 of the raw body.</li>
            <li>Use x-hf-event-id to ignore a delivery you have already handled.</li>
          </ul>
        </div>
        <div>
          <h3 className="font-semibold text-ink">Use cases</h3>
          <ul className="mt-2 list-disc space-y-1 pl-5 text-sm text-ink">
            <li>Send qualified leads straight to your booking page.</li>
            <li>Add new leads to your CRM through an automation.</li>
            <li>Get a chat alert when someone qualifies for a call.</li>
            <li>Keep your email list in step with the funnel.</li>
          </ul>
        </div>
      </div>
    </section>
  );
}
