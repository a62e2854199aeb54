// Production mailer: SMTP through nodemailer, configured by SMTP_URL (smtp[s]://user:pass@host:port).
// nodemailer loads when this mailer is made (at start, with SMTP_URL set), not with the service's modules: a
// process without SMTP does not spend its start evaluating it.
import type { Transporter } from 'nodemailer';
import type { MailMessage, Mailer } from './mailer.js';

export class SmtpMailer implements Mailer {
  private readonly transport: Promise<Transporter>;

  constructor(
    smtpUrl: string,
    private readonly from: string,
  ) {
    this.transport = import('nodemailer').then(({ default: nodemailer }) => nodemailer.createTransport(smtpUrl));
    this.transport.catch(() => undefined); // a failure surfaces where a send awaits it
  }

  async send(message: MailMessage): Promise<void> {
    const transport = await this.transport;
    await transport.sendMail({
      from: this.from,
      to: message.to,
      subject: message.subject,
      text: message.text,
      html: message.html,
    });
  }

  close(): void {
    void this.transport.then(
      (transport) => transport.close(),
      () => undefined,
    );
  }
}
