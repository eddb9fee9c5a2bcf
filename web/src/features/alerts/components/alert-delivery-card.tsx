import { type FormEvent, useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { useSearchParams } from "react-router-dom";
import { toast } from "sonner";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import {
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
} from "@/components/ui/table";
import { NativeSelect } from "@/components/ui/native-select";
import type { Profile } from "@/lib/profile-query";
import {
  browserTimeZone,
  checkStormControl,
  CONFLUENCE,
  COOLDOWNS,
  DAILY_CAP_MAX,
  DIRECTIONS,
  type Direction,
  ESCALATION_STEPS,
  type StormError,
  stormErrorOf,
  MUTE_MINUTES,
  SYMBOL_PATTERN,
  useDeleteSymbolRule,
  useMuteSymbol,
  useRecentAlerts,
  useSaveDeliveryOptions,
  useSaveSymbolThreshold,
  useSymbolRules,
} from "../api/alerts";
import { dateTimeFormat } from "@/lib/time-zone";

function formatPct(pct: number): string {
  return `${pct >= 0 ? "+" : ""}${pct.toFixed(2)}%`;
}

/**
 * Alert delivery on the settings page (decision 0020): pump/dump, cooldown and confluence,
 * per-symbol thresholds and mutes, and the user's own recent alerts. Market alerts are sent on
 * the enterprise plan; below it the options are shown but disabled, with the reason.
 * `?mute=SYMBOL&minutes=60` (the link in every alert) mutes that symbol once on arrival.
 */
export function AlertDeliveryCard({ profile }: { profile: Profile }) {
  const { t, i18n } = useTranslation("alerts");
  const enterprise =
    profile.plan === "enterprise" && profile.subscription_active && !profile.banned;
  const [direction, setDirection] = useState<Direction>(profile.alert_directions as Direction);
  const [cooldown, setCooldown] = useState(String(profile.alert_cooldown_minutes));
  const [confluence, setConfluence] = useState(String(profile.alert_confluence_min));
  const [step, setStep] = useState(String(Number(profile.alert_escalation_step)));
  const [dailyCap, setDailyCap] = useState(
    profile.alert_daily_cap === null ? "" : String(profile.alert_daily_cap),
  );
  const [quietStart, setQuietStart] = useState(profile.alert_quiet_start?.slice(0, 5) ?? "");
  const [quietEnd, setQuietEnd] = useState(profile.alert_quiet_end?.slice(0, 5) ?? "");
  const [quietDumps, setQuietDumps] = useState(profile.alert_quiet_dumps);
  const [includeThin, setIncludeThin] = useState(profile.alert_include_thin);
  const [requireConfirmation, setRequireConfirmation] = useState(
    profile.alert_require_confirmation,
  );
  const [stormError, setStormError] = useState<StormError | null>(null);
  // Quiet hours and the daily cap follow the profile's zone; the browser's is saved with the
  // first save when none is set (UTC for messages until then).
  const zone = profile.time_zone ?? browserTimeZone() ?? "UTC";
  const [symbol, setSymbol] = useState("");
  const [threshold, setThreshold] = useState("");
  const [ruleError, setRuleError] = useState<string | null>(null);
  const save = useSaveDeliveryOptions(profile.id);
  const rules = useSymbolRules(true);
  const recent = useRecentAlerts(profile.id);
  const saveRule = useSaveSymbolThreshold(profile.id);
  const deleteRule = useDeleteSymbolRule();
  const mute = useMuteSymbol();
  const [params, setParams] = useSearchParams();
  const handledMute = useRef(false);

  // The "Mute for 1 h" link of an alert.
  useEffect(() => {
    const target = params.get("mute");
    if (!target || handledMute.current) return;
    handledMute.current = true;
    const minutes = Number(params.get("minutes") ?? 60);
    const next = new URLSearchParams(params);
    next.delete("mute");
    next.delete("minutes");
    setParams(next, { replace: true });
    if (!SYMBOL_PATTERN.test(target) || !(MUTE_MINUTES as readonly number[]).includes(minutes)) {
      toast.error(t("mute.invalidLink"));
      return;
    }
    mute.mutate(
      { symbol: target, minutes },
      {
        onSuccess: () =>
          toast.success(
            t("mute.done", {
              symbol: target,
              duration: t(`mute.for.m${minutes}` as "mute.for.m60"),
            }),
          ),
        onError: () => toast.error(t("mute.failed")),
      },
    );
  }, [params, setParams, mute, t]);

  const onSaveOptions = (e: FormEvent) => {
    e.preventDefault();
    const invalid = checkStormControl({ dailyCap, quietStart, quietEnd });
    setStormError(invalid);
    if (invalid) return;
    const newZone = profile.time_zone ? undefined : browserTimeZone();
    save.mutate(
      {
        alert_directions: direction,
        alert_cooldown_minutes: Number(cooldown),
        alert_confluence_min: Number(confluence),
        alert_escalation_step: Number(step),
        alert_daily_cap: dailyCap.trim() === "" ? null : Number(dailyCap),
        alert_quiet_start: quietStart === "" ? null : quietStart,
        alert_quiet_end: quietEnd === "" ? null : quietEnd,
        alert_quiet_dumps: quietDumps,
        alert_include_thin: includeThin,
        alert_require_confirmation: requireConfirmation,
        locale:
          (["de", "en", "fr", "es"] as const).find((l) => i18n.language?.startsWith(l)) ?? null,
        ...(newZone ? { time_zone: newZone } : {}),
      },
      {
        onSuccess: () => toast.success(t("options.saved")),
        onError: (err) => {
          const rule = stormErrorOf(err);
          setStormError(rule);
          toast.error(rule ? t(`storm.errors.${rule}`) : t("options.failed"));
        },
      },
    );
  };

  const onAddRule = (e: FormEvent) => {
    e.preventDefault();
    const s = symbol.trim().toUpperCase();
    const value = Number(threshold);
    if (!SYMBOL_PATTERN.test(s)) return setRuleError(t("rules.symbolInvalid"));
    if (threshold.trim() === "" || !Number.isFinite(value) || value < 1 || value > 100) {
      return setRuleError(t("rules.thresholdInvalid"));
    }
    setRuleError(null);
    saveRule.mutate(
      { symbol: s, threshold: Math.round(value * 10) / 10 },
      {
        onSuccess: () => {
          setSymbol("");
          setThreshold("");
          toast.success(t("rules.saved", { symbol: s }));
        },
        onError: () => toast.error(t("rules.failed")),
      },
    );
  };

  const dateFormat = dateTimeFormat(i18n.language, {
    dateStyle: "short",
    timeStyle: "short",
  });
  // Mutes are compared with the time the rules were read (re-read after every change).
  const now = rules.dataUpdatedAt;

  return (
    <Card>
      <CardHeader>
        <CardTitle>
          <h2>{t("title")}</h2>
        </CardTitle>
        <CardDescription>{enterprise ? t("description") : t("enterpriseOnly")}</CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-8">
        <form
          onSubmit={onSaveOptions}
          className="grid gap-4 sm:grid-cols-3"
          aria-label={t("options.title")}
        >
          <div className="flex flex-col gap-2">
            <Label htmlFor="alert-direction">{t("options.direction")}</Label>
            <NativeSelect
              id="alert-direction"
              value={direction}
              disabled={!enterprise}
              onChange={(e) => setDirection(e.target.value as Direction)}
            >
              {DIRECTIONS.map((d) => (
                <option key={d} value={d}>
                  {t(`options.directions.${d}`)}
                </option>
              ))}
            </NativeSelect>
          </div>
          <div className="flex flex-col gap-2">
            <Label htmlFor="alert-cooldown">{t("options.cooldown")}</Label>
            <NativeSelect
              id="alert-cooldown"
              value={cooldown}
              disabled={!enterprise}
              onChange={(e) => setCooldown(e.target.value)}
            >
              {COOLDOWNS.map((m) => (
                <option key={m} value={m}>
                  {t(`options.cooldowns.m${m}`)}
                </option>
              ))}
            </NativeSelect>
          </div>
          <div className="flex flex-col gap-2">
            <Label htmlFor="alert-confluence">{t("options.confluence")}</Label>
            <NativeSelect
              id="alert-confluence"
              value={confluence}
              disabled={!enterprise}
              onChange={(e) => setConfluence(e.target.value)}
            >
              {CONFLUENCE.map((n) => (
                <option key={n} value={n}>
                  {n === 0 ? t("options.confluenceOff") : t("options.confluenceN", { count: n })}
                </option>
              ))}
            </NativeSelect>
          </div>
          <p className="text-sm text-muted-foreground sm:col-span-3">{t("options.hint")}</p>
          <fieldset className="grid gap-4 sm:col-span-3 sm:grid-cols-3" disabled={!enterprise}>
            <legend className="mb-2 font-semibold">{t("storm.title")}</legend>
            <div className="flex flex-col gap-2">
              <Label htmlFor="alert-step">{t("storm.step")}</Label>
              <NativeSelect id="alert-step" value={step} onChange={(e) => setStep(e.target.value)}>
                {ESCALATION_STEPS.map((n) => (
                  <option key={n} value={n}>
                    {n === 0 ? t("storm.stepOff") : t("storm.stepN", { count: n })}
                  </option>
                ))}
              </NativeSelect>
            </div>
            <div className="flex flex-col gap-2">
              <Label htmlFor="alert-cap">{t("storm.cap")}</Label>
              <Input
                id="alert-cap"
                type="number"
                min={1}
                max={DAILY_CAP_MAX}
                step={1}
                inputMode="numeric"
                placeholder={t("storm.capNone")}
                value={dailyCap}
                onChange={(e) => setDailyCap(e.target.value)}
                aria-invalid={stormError === "cap" ? true : undefined}
              />
            </div>
            <div className="flex flex-col gap-2">
              <span className="text-sm font-medium">{t("storm.quiet")}</span>
              <div className="flex items-center gap-2">
                <Input
                  id="alert-quiet-start"
                  type="time"
                  aria-label={t("storm.quietStart")}
                  value={quietStart}
                  onChange={(e) => setQuietStart(e.target.value)}
                  aria-invalid={
                    stormError === "quietPair" || stormError === "quietSpan" ? true : undefined
                  }
                />
                <span aria-hidden="true">–</span>
                <Input
                  id="alert-quiet-end"
                  type="time"
                  aria-label={t("storm.quietEnd")}
                  value={quietEnd}
                  onChange={(e) => setQuietEnd(e.target.value)}
                  aria-invalid={
                    stormError === "quietPair" || stormError === "quietSpan" ? true : undefined
                  }
                />
              </div>
              <label className="flex items-center gap-2 text-sm">
                <input
                  type="checkbox"
                  checked={quietDumps}
                  onChange={(e) => setQuietDumps(e.target.checked)}
                />
                {t("storm.quietDumps")}
              </label>
            </div>
            <p className="text-sm text-muted-foreground sm:col-span-3">
              {t("storm.hint", { zone })}
            </p>
            {stormError && (
              <p role="alert" className="text-sm text-destructive sm:col-span-3">
                {t(`storm.errors.${stormError}`)}
              </p>
            )}
          </fieldset>
          <fieldset className="flex flex-col gap-2 sm:col-span-3" disabled={!enterprise}>
            <legend className="mb-2 font-semibold">{t("trust.title")}</legend>
            <label className="flex items-center gap-2 text-sm">
              <input
                type="checkbox"
                checked={includeThin}
                onChange={(e) => setIncludeThin(e.target.checked)}
              />
              {t("trust.includeThin")}
            </label>
            <label className="flex items-center gap-2 text-sm">
              <input
                type="checkbox"
                checked={requireConfirmation}
                onChange={(e) => setRequireConfirmation(e.target.checked)}
              />
              {t("trust.requireConfirmation")}
            </label>
            <p className="text-sm text-muted-foreground">{t("trust.hint")}</p>
          </fieldset>
          <div className="sm:col-span-3">
            <Button type="submit" disabled={!enterprise || save.isPending}>
              {save.isPending ? t("options.saving") : t("options.save")}
            </Button>
          </div>
        </form>

        <section className="flex flex-col gap-3" aria-labelledby="alert-rules-title">
          <h3 id="alert-rules-title" className="font-semibold">
            {t("rules.title")}
          </h3>
          <p className="text-sm text-muted-foreground">{t("rules.hint")}</p>
          <form
            onSubmit={onAddRule}
            className="flex flex-col gap-2 sm:flex-row sm:items-end"
            noValidate
          >
            <div className="flex flex-1 flex-col gap-2">
              <Label htmlFor="rule-symbol">{t("rules.symbol")}</Label>
              <Input
                id="rule-symbol"
                value={symbol}
                placeholder="BTC/USDT"
                disabled={!enterprise}
                onChange={(e) => setSymbol(e.target.value)}
                aria-invalid={ruleError ? true : undefined}
              />
            </div>
            <div className="flex flex-col gap-2 sm:w-40">
              <Label htmlFor="rule-threshold">{t("rules.threshold")}</Label>
              <Input
                id="rule-threshold"
                type="number"
                min={1}
                max={100}
                step={0.1}
                value={threshold}
                disabled={!enterprise}
                onChange={(e) => setThreshold(e.target.value)}
                aria-invalid={ruleError ? true : undefined}
              />
            </div>
            <Button type="submit" variant="secondary" disabled={!enterprise || saveRule.isPending}>
              {t("rules.add")}
            </Button>
          </form>
          {ruleError && (
            <p role="alert" className="text-sm text-destructive">
              {ruleError}
            </p>
          )}
          {rules.data && rules.data.length > 0 ? (
            <ul className="flex flex-col divide-y rounded-md border">
              {rules.data.map((r) => {
                const muted = r.muted_until && Date.parse(r.muted_until) > now;
                return (
                  <li
                    key={r.symbol}
                    className="flex flex-wrap items-center gap-2 px-3 py-2 text-sm"
                  >
                    <span className="font-medium">{r.symbol}</span>
                    {r.threshold !== null && (
                      <span className="text-muted-foreground">
                        {t("rules.thresholdValue", { value: r.threshold })}
                      </span>
                    )}
                    {muted && (
                      <span className="text-muted-foreground">
                        {t("rules.mutedUntil", {
                          time: dateFormat.format(new Date(r.muted_until!)),
                        })}
                      </span>
                    )}
                    <span className="ml-auto flex flex-wrap gap-1">
                      {MUTE_MINUTES.map((m) => (
                        <Button
                          key={m}
                          size="sm"
                          variant="outline"
                          disabled={!enterprise || mute.isPending}
                          onClick={() => mute.mutate({ symbol: r.symbol, minutes: m })}
                          aria-label={t("mute.action", {
                            symbol: r.symbol,
                            duration: t(`mute.for.m${m}` as "mute.for.m60"),
                          })}
                        >
                          {t(`mute.short.m${m}` as "mute.short.m60")}
                        </Button>
                      ))}
                      <Button
                        size="sm"
                        variant="ghost"
                        disabled={deleteRule.isPending}
                        onClick={() => deleteRule.mutate(r.symbol)}
                        aria-label={t("rules.remove", { symbol: r.symbol })}
                      >
                        {t("rules.removeShort")}
                      </Button>
                    </span>
                  </li>
                );
              })}
            </ul>
          ) : (
            <p className="text-sm text-muted-foreground">{t("rules.empty")}</p>
          )}
        </section>

        <section className="flex flex-col gap-3" aria-labelledby="recent-alerts-title">
          <h3 id="recent-alerts-title" className="font-semibold">
            {t("recent.title")}
          </h3>
          {recent.data && recent.data.length > 0 ? (
            <div className="overflow-x-auto">
              <Table>
                <TableHeader>
                  <TableRow>
                    <TableHead>{t("recent.symbol")}</TableHead>
                    <TableHead>{t("recent.exchange")}</TableHead>
                    <TableHead>{t("recent.change")}</TableHead>
                    <TableHead>{t("recent.channel")}</TableHead>
                    <TableHead>{t("recent.time")}</TableHead>
                  </TableRow>
                </TableHeader>
                <TableBody>
                  {recent.data.map((a) => (
                    <TableRow key={a.id}>
                      <TableCell className="font-medium">
                        {a.symbol}
                        {a.symbol_count > 1 && (
                          <span
                            className="ml-1 text-xs font-normal text-muted-foreground"
                            title={a.symbols.join(", ")}
                          >
                            {t("recent.more", { count: a.symbol_count - 1 })}
                          </span>
                        )}
                      </TableCell>
                      <TableCell>{a.exchange}</TableCell>
                      <TableCell
                        className={
                          Number(a.pct) >= 0
                            ? "text-emerald-600 dark:text-emerald-400"
                            : "text-red-600 dark:text-red-400"
                        }
                      >
                        {formatPct(Number(a.pct))}
                      </TableCell>
                      <TableCell>
                        {a.channel
                          ? t(`recent.channels.${a.channel}` as "recent.channels.email")
                          : "—"}
                      </TableCell>
                      <TableCell>{dateFormat.format(new Date(a.created_at))}</TableCell>
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
            </div>
          ) : (
            <p className="text-sm text-muted-foreground">
              {recent.isPending ? t("recent.loading") : t("recent.empty")}
            </p>
          )}
        </section>
      </CardContent>
    </Card>
  );
}
