import { useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import type { Profile } from "@/lib/profile-query";
import {
  type MessageLocale,
  messageLocaleOf,
  messageZoneOf,
  type PreviewMessage,
  previewMessage,
  sampleItems,
} from "../utils/message-preview";

function MessageBlock({
  id,
  label,
  message,
}: {
  id: string;
  label: string;
  message: PreviewMessage;
}) {
  return (
    <section aria-labelledby={id} className="flex min-w-0 flex-col gap-2">
      <h3 id={id} className="text-sm font-medium text-muted-foreground">
        {label}
      </h3>
      <div className="flex flex-col gap-2 rounded-md border bg-muted/30 p-3 text-sm">
        <p className="font-semibold" data-testid={`${id}-heading`}>
          {message.heading}
        </p>
        <ul className="flex flex-col gap-2">
          {message.lines.map((line) => (
            <li key={line.title} className="flex flex-col gap-0.5">
              {message.lines.length > 1 && <span className="font-medium">{line.title}</span>}
              <span className="break-words text-muted-foreground">{line.details}</span>
            </li>
          ))}
        </ul>
        <p className="text-xs text-muted-foreground">{message.disclaimer}</p>
      </div>
    </section>
  );
}

/**
 * What the subscriber's next alert will look like (a single alert and a digest), in the language
 * and time zone the delivery worker will use for them, from the texts it sends (`messages`).
 */
export function AlertMessagePreview({
  profile,
  now: fixedNow,
}: {
  profile: Pick<Profile, "locale" | "time_zone" | "selected_window_minutes">;
  now?: number;
}) {
  const { t, i18n } = useTranslation("alerts");
  const locale = messageLocaleOf(profile.locale);
  const zone = messageZoneOf(profile.time_zone);
  // The recipient's language, which may differ from the page's: react-i18next loads it.
  const { t: tm } = useTranslation("messages", { lng: locale });
  // The moment the card opened (examples, so it does not tick).
  const [openedAt] = useState(() => Date.now());
  const now = fixedNow ?? openedAt;
  const items = useMemo(
    () => sampleItems(profile.selected_window_minutes, now),
    [profile.selected_window_minutes, now],
  );
  const single = previewMessage(tm, items.slice(0, 1), locale, zone);
  const digest = previewMessage(tm, items, locale, zone);
  const { t: tc } = useTranslation("common");
  const pageLanguage = messageLocaleOf(i18n.resolvedLanguage);
  const languageName = (lng: MessageLocale) => tc(`language.names.${lng}`);

  return (
    <Card>
      <CardHeader>
        <CardTitle>
          <h2>{t("preview.title")}</h2>
        </CardTitle>
        <CardDescription>
          {t("preview.sentIn", { language: languageName(locale), zone })}
          {locale !== pageLanguage && (
            <> {t("preview.saveToSwitch", { language: languageName(pageLanguage) })}</>
          )}
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4 md:grid-cols-2" lang={locale}>
        <MessageBlock id="preview-single" label={t("preview.single")} message={single} />
        <MessageBlock id="preview-digest" label={t("preview.digest")} message={digest} />
      </CardContent>
    </Card>
  );
}
