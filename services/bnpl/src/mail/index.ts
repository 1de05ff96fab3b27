// Outgoing e-mail (SMTP): what the domain services send through.
export { createSmtpMailer, type MailMessage, type Mailer, type SmtpMailerOptions } from './mailer.js';
