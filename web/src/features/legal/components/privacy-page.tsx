import { Link } from "react-router-dom";
import { LegalArticle } from "./legal-article";

/** /datenschutz: privacy policy, static German (spec section 2). */
export function PrivacyPage() {
  return (
    <LegalArticle title="Datenschutzerklärung">
      <p
        role="note"
        className="rounded-md border border-destructive/40 bg-destructive/10 px-3 py-2 font-medium text-foreground"
      >
        Hinweis: Dies ist ein Platzhaltertext. Er muss vor dem Betrieb durch eine vollständige,
        rechtlich geprüfte Datenschutzerklärung ersetzt werden.
      </p>

      <h2>1. Verantwortlicher</h2>
      <p>
        Verantwortlich für die Datenverarbeitung auf dieser Website ist der im{" "}
        <Link to="/impressum">Impressum</Link> genannte Anbieter.
      </p>

      <h2>2. Welche Daten wir erheben</h2>
      <ul>
        <li>E-Mail-Adresse</li>
        <li>Passwort (ausschließlich verschlüsselt gespeichert)</li>
        <li>Nutzungsdaten (z. B. Zeitpunkt der letzten Aktivität, gewählte Einstellungen)</li>
        <li>Alarm-Einstellungen für Discord, Telegram und E-Mail</li>
        <li>IP-Adresse</li>
      </ul>

      <h2>3. Rechtsgrundlage</h2>
      <p>
        Wir verarbeiten diese Daten zur Erfüllung des Vertrags über die Nutzung unseres Dienstes
        (Art. 6 Abs. 1 lit. b DSGVO, Vertragserfüllung).
      </p>

      <h2>4. Speicherdauer</h2>
      <p>Nach der Löschung Ihres Kontos werden Ihre Daten innerhalb von 30 Tagen gelöscht.</p>

      <h2>5. Cookies</h2>
      <p>
        Wir verwenden ausschließlich technisch notwendige Cookies bzw. Speichereinträge für die
        Anmeldung (Authentifizierung). Sprache und Farbschema werden nur lokal in Ihrem Browser
        gespeichert.
      </p>

      <h2>6. Kein Tracking durch Dritte</h2>
      <p>Wir setzen keine Analyse- oder Tracking-Dienste von Drittanbietern ein.</p>

      <h2>7. Weitergabe von Daten</h2>
      <p>
        Ihre Daten werden nur an die Alarmdienste weitergegeben, die Sie selbst einrichten (Discord,
        Telegram, E-Mail), und nur, um Ihnen Ihre Alarme zuzustellen. Zahlungsdaten geben Sie direkt
        auf der Seite unseres Zahlungsanbieters ein; wir speichern sie nicht.
      </p>

      <h2>8. Ihre Rechte</h2>
      <p>
        Sie haben das Recht auf Auskunft, Berichtigung, Löschung, Einschränkung der Verarbeitung,
        Datenübertragbarkeit und Widerspruch sowie das Recht, sich bei einer
        Datenschutz-Aufsichtsbehörde zu beschweren.
      </p>
    </LegalArticle>
  );
}
