import { BellOffIcon } from "lucide-react";
import { useTranslation } from "react-i18next";
import { toast } from "sonner";
import { Button } from "@/components/ui/button";
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuTrigger,
} from "@/components/ui/dropdown-menu";
import { useCurrentUser } from "@/hooks/use-current-user";
import { MUTE_MINUTES, useMuteSymbol } from "../api/alerts";

/**
 * "Mute alerts" for one symbol from the dashboard (15 min, 1 h or 24 h), for the accounts that
 * receive market alerts (enterprise, decision 0020). The database decides who may mute
 * (mute_alert_symbol); this only hides the menu from accounts that get no alerts anyway.
 */
export function MuteSymbolMenu({ symbol }: { symbol: string }) {
  const { t } = useTranslation("alerts");
  const { profile, isSubscriber } = useCurrentUser();
  const mute = useMuteSymbol();
  if (!isSubscriber || profile?.plan !== "enterprise") return null;

  const muteFor = (minutes: number) => {
    const duration = t(`mute.for.m${minutes}` as "mute.for.m60");
    mute.mutate(
      { symbol, minutes },
      {
        onSuccess: () => toast.success(t("mute.done", { symbol, duration })),
        onError: () => toast.error(t("mute.failed")),
      },
    );
  };

  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        <Button variant="outline" size="sm" disabled={mute.isPending}>
          <BellOffIcon aria-hidden="true" />
          {t("mute.menu")}
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="start">
        {MUTE_MINUTES.map((minutes) => (
          <DropdownMenuItem key={minutes} onSelect={() => muteFor(minutes)}>
            {t("mute.action", {
              symbol,
              duration: t(`mute.for.m${minutes}` as "mute.for.m60"),
            })}
          </DropdownMenuItem>
        ))}
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
