import { UploadIcon, XIcon } from "lucide-react";
import { useEffect, useId, useRef, useState, type ChangeEvent } from "react";
import { useTranslation } from "react-i18next";
import { toast } from "sonner";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Spinner } from "@/components/ui/spinner";
import { useSessionExpiredHandler } from "@/lib/session-expired";
import { AvatarUploadError, useUploadAvatar, type AvatarErrorCode } from "../api/upload-avatar";
import { checkAvatarFile, type AvatarFileProblem } from "../utils/avatar-file";
import { AvatarImage } from "./avatar-image";

type AvatarCardProps = {
  userId: string;
  /** The stored picture, if any. */
  avatarUrl: string | null;
  /** Shown when there is no picture: first letter of the username or e-mail. */
  initial: string;
};

type Selection = { file: File; previewUrl: string };

/**
 * The `avatar` function's error codes the page translates: a refused file reads like the
 * browser's own check; a request without a readable image gets a general text. Other codes keep
 * the server's message.
 */
const SERVER_PROBLEMS = new Map<AvatarErrorCode, AvatarFileProblem | "badRequest">([
  ["file_too_large", "tooLarge"],
  ["invalid_file_type", "invalidType"],
  ["missing_file", "badRequest"],
  ["invalid_request", "badRequest"],
]);

/**
 * Avatar upload: no file → chosen (preview) → uploading → uploaded, or cleared by Cancel.
 * The picture is checked here for type and size and again, by content, by the server.
 */
export function AvatarCard({ userId, avatarUrl, initial }: AvatarCardProps) {
  const { t } = useTranslation("profile");
  const inputId = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  const [selection, setSelection] = useState<Selection | null>(null);
  const [uploadedUrl, setUploadedUrl] = useState<string | null>(null);
  const upload = useUploadAvatar(userId);
  const handleSessionExpired = useSessionExpiredHandler();

  // The preview is an object URL: release it when the selection goes.
  useEffect(() => {
    if (!selection) return;
    return () => URL.revokeObjectURL(selection.previewUrl);
  }, [selection]);

  function resetInput() {
    if (inputRef.current) inputRef.current.value = "";
  }

  function onFileChange(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    if (!file) return;
    const problem = checkAvatarFile(file);
    if (problem) {
      resetInput();
      toast.error(t(`avatar.${problem}.title`), {
        description: t(`avatar.${problem}.description`),
      });
      return;
    }
    setSelection({ file, previewUrl: URL.createObjectURL(file) });
  }

  function onCancel() {
    setSelection(null);
    resetInput();
  }

  function onUpload() {
    if (!selection) return;
    upload.mutate(selection.file, {
      onSuccess: ({ avatarUrl: url }) => {
        setUploadedUrl(url);
        setSelection(null);
        resetInput();
        toast.success(t("avatar.uploaded"));
      },
      onError: (error) => {
        if (handleSessionExpired(error)) return;
        const code = error instanceof AvatarUploadError ? error.code : null;
        const problem = code === null ? undefined : SERVER_PROBLEMS.get(code);
        if (problem === "badRequest") {
          toast.error(t("avatar.failed"), { description: t("avatar.badRequest") });
          return;
        }
        if (problem) {
          // The server's content check said what the browser's check says: the same texts.
          toast.error(t(`avatar.${problem}.title`), {
            description: t(`avatar.${problem}.description`),
          });
          return;
        }
        const status = error instanceof AvatarUploadError ? error.status : null;
        const description =
          error.message ||
          (status === null ? undefined : t("avatar.failedStatus", { status: String(status) }));
        toast.error(t("avatar.failed"), { description });
      },
    });
  }

  const uploading = upload.isPending;
  const shownUrl = selection?.previewUrl ?? uploadedUrl ?? avatarUrl;

  return (
    <Card>
      <CardHeader>
        <CardTitle>{t("avatar.title")}</CardTitle>
        <CardDescription>{t("avatar.hint")}</CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col items-center gap-4 sm:flex-row sm:items-center">
        <AvatarImage
          url={shownUrl}
          initial={initial}
          alt={selection ? t("avatar.preview") : t("avatar.current")}
        />
        <div className="flex flex-wrap justify-center gap-2 sm:justify-start">
          <label htmlFor={inputId} className="sr-only">
            {t("avatar.choose")}
          </label>
          <input
            ref={inputRef}
            id={inputId}
            type="file"
            accept="image/jpeg,image/png,image/gif,image/webp"
            className="sr-only"
            tabIndex={-1}
            disabled={uploading}
            onChange={onFileChange}
          />
          {selection ? (
            <>
              <Button type="button" onClick={onUpload} disabled={uploading}>
                {uploading ? <Spinner /> : <UploadIcon aria-hidden="true" />}
                {uploading ? t("avatar.uploading") : t("avatar.upload")}
              </Button>
              <Button type="button" variant="outline" onClick={onCancel} disabled={uploading}>
                <XIcon aria-hidden="true" />
                {t("avatar.cancel")}
              </Button>
            </>
          ) : (
            <Button type="button" variant="outline" onClick={() => inputRef.current?.click()}>
              {t("avatar.choose")}
            </Button>
          )}
        </div>
      </CardContent>
    </Card>
  );
}
