import { useId, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { toast } from "sonner";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Input } from "@/components/ui/input";
import { NativeSelect } from "@/components/ui/native-select";
import { Spinner } from "@/components/ui/spinner";
import { useSessionExpiredHandler } from "@/lib/session-expired";
import { browserTimeZone, dateTimeFormat, supportedTimeZones } from "@/lib/time-zone";
import { isUnknownTimeZoneError, useUpdateTimeZone } from "../api/update-time-zone";

type TimeZoneCardProps = {
  userId: string;
  /** `profiles.time_zone`; null until chosen (dates then follow the browser). */
  current: string | null;
};

/**
 * The reader's time zone: a searchable list of the IANA zones (the browser's preselected while
 * none is saved), saved on the profile; every date in the app then uses it.
 */
export function TimeZoneCard({ userId, current }: TimeZoneCardProps) {
  const { t, i18n } = useTranslation("profile");
  const id = useId();
  const zones = useMemo(() => supportedTimeZones(), []);
  const initial = current ?? browserTimeZone() ?? "UTC";
  const [zone, setZone] = useState(initial);
  const [query, setQuery] = useState("");
  const [refusal, setRefusal] = useState<string | null>(null);
  const save = useUpdateTimeZone(userId);
  const handleSessionExpired = useSessionExpiredHandler();

  const needle = query.trim().toLowerCase().replaceAll(" ", "_");
  const shown = zones.filter((name) => name.toLowerCase().includes(needle));
  // The chosen zone stays an option while a search hides it, so the select never shows a blank.
  const options = shown.includes(zone) ? shown : [zone, ...shown];
  const now = dateTimeFormat(i18n.language, { timeStyle: "short", timeZone: zone }).format(
    new Date(),
  );

  const onSave = () => {
    setRefusal(null);
    save.mutate(
      { timeZone: zone },
      {
        onSuccess: () => toast.success(t("timeZone.saved", { zone })),
        onError: (error) => {
          if (handleSessionExpired(error)) return;
          const text = isUnknownTimeZoneError(error) ? t("timeZone.unknown") : error.message;
          setRefusal(text);
          toast.error(t("timeZone.failed"), { description: text });
        },
      },
    );
  };

  return (
    <Card>
      <CardHeader>
        <CardTitle>{t("timeZone.title")}</CardTitle>
        <CardDescription>{t("timeZone.description")}</CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-3">
        <div className="flex flex-col gap-1.5">
          <label htmlFor={`${id}-search`} className="text-sm font-medium">
            {t("timeZone.search")}
          </label>
          <Input
            id={`${id}-search`}
            type="search"
            value={query}
            maxLength={64}
            placeholder={t("timeZone.searchPlaceholder")}
            onChange={(event) => setQuery(event.target.value)}
          />
        </div>
        <div className="flex flex-col gap-1.5">
          <label htmlFor={id} className="text-sm font-medium">
            {t("timeZone.label")}
          </label>
          <NativeSelect
            id={id}
            value={zone}
            aria-invalid={refusal !== null}
            aria-describedby={`${id}-hint`}
            onChange={(event) => {
              setZone(event.target.value);
              setRefusal(null);
            }}
          >
            {options.map((name) => (
              <option key={name} value={name}>
                {name.replaceAll("_", " ")}
              </option>
            ))}
          </NativeSelect>
          <p id={`${id}-hint`} className="text-xs text-muted-foreground">
            {shown.length === 0
              ? t("timeZone.noMatch")
              : current === null
                ? t("timeZone.browserDefault", { time: now })
                : t("timeZone.localTime", { time: now })}
          </p>
          {refusal !== null && (
            <p role="alert" className="text-sm text-destructive">
              {refusal}
            </p>
          )}
        </div>
        <Button
          type="button"
          className="self-start"
          disabled={save.isPending || zone === current}
          onClick={onSave}
        >
          {save.isPending && <Spinner />}
          {t("timeZone.save")}
        </Button>
      </CardContent>
    </Card>
  );
}
