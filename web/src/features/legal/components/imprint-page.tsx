import { Link } from "react-router-dom";
import { LegalArticle } from "./legal-article";

/** /impressum: legal notice, static German (spec section 2). */
export function ImprintPage() {
  return (
    <LegalArticle title="Impressum">
      <h2>Angaben gemäß § 5 DDG</h2>
      <p>
        MoverScan
        <br />
        [Vorname Nachname des Anbieters]
        <br />
        [Straße und Hausnummer]
        <br />
        [PLZ Ort]
        <br />
        Deutschland
      </p>

      <h2>Kontakt</h2>
      <p>
        E-Mail: [kontakt@beispiel.de]
        <br />
        Für Fragen zu Ihrem Konto nutzen Sie bitte auch unseren Support (nach der Anmeldung unter
        „Support“).
      </p>

      <h2>Umsatzsteuer</h2>
      <p>
        Kleinunternehmer im Sinne von § 19 Abs. 1 UStG. Es wird daher keine Umsatzsteuer berechnet
        und ausgewiesen (Umsatzsteuerbefreiung für Kleinunternehmer).
      </p>

      <h2>Verantwortlich für den Inhalt nach § 18 Abs. 2 MStV</h2>
      <p>[Vorname Nachname], Anschrift wie oben.</p>

      <h2>Verbraucherstreitbeilegung</h2>
      <p>
        Wir sind nicht bereit und nicht verpflichtet, an Streitbeilegungsverfahren vor einer
        Verbraucherschlichtungsstelle teilzunehmen.
      </p>

      <h2>Keine Anlageberatung</h2>
      <p>
        Alle auf dieser Website angezeigten Marktdaten, Signale und Analysen sind experimentell,
        dienen ausschließlich Bildungszwecken und stellen keine Anlage-, Rechts- oder Steuerberatung
        dar. Der Handel mit Kryptowerten ist mit erheblichen Risiken bis hin zum Totalverlust
        verbunden.
      </p>

      <h2>Datenschutz</h2>
      <p>
        Informationen zur Verarbeitung Ihrer Daten finden Sie in unserer{" "}
        <Link to="/datenschutz">Datenschutzerklärung</Link>.
      </p>
    </LegalArticle>
  );
}
