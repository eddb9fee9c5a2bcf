import { CHAT_GIF_MAX_BYTES } from "@domain/chat-gifs";
import { ImagePlus, SendHorizontal, X } from "lucide-react";
import { type FormEvent, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { toast } from "sonner";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { Spinner } from "@/components/ui/spinner";
import { useSessionExpiredHandler } from "@/lib/session-expired";
import { useRemoveGif } from "../api/remove-gif";
import { useUploadGif } from "../api/upload-gif";
import { ChatGif } from "./chat-gif";

type MessageComposerProps = {
  groupId: string;
  disabled?: boolean;
  onSend: (content: string, attachmentUrl: string | null) => void;
  onTyping: () => void;
};

/**
 * The input, the send button and the GIF upload with preview and remove (spec sections 2, 4, 5):
 * send is disabled while the text is blank; the upload button while uploading or while a GIF is
 * pending; after a send, text and GIF clear.
 */
export function MessageComposer({ groupId, disabled, onSend, onTyping }: MessageComposerProps) {
  const { t } = useTranslation("community");
  const [content, setContent] = useState("");
  const [gifUrl, setGifUrl] = useState<string | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const upload = useUploadGif(groupId);
  const removeGif = useRemoveGif();
  const handleSessionExpired = useSessionExpiredHandler();

  const pickFile = (file: File | undefined) => {
    if (fileInput.current) fileInput.current.value = "";
    if (!file) return;
    if (file.type !== "image/gif") {
      toast.error(t("gif.invalidTitle"), { description: t("gif.invalidDescription") });
      return;
    }
    if (file.size > CHAT_GIF_MAX_BYTES) {
      toast.error(t("gif.uploadFailed"), { description: t("gif.tooLarge") });
      return;
    }
    upload.mutate(file, {
      onSuccess: ({ attachmentUrl }) => {
        setGifUrl(attachmentUrl);
        toast.success(t("gif.uploaded"), { description: t("gif.uploadedDescription") });
      },
      onError: (error) => {
        if (handleSessionExpired(error)) return;
        const code = (error as { code?: unknown }).code;
        if (code === "invalid_file") {
          toast.error(t("gif.invalidTitle"), { description: t("gif.invalidDescription") });
        } else {
          toast.error(t("gif.uploadFailed"), {
            description:
              code === "file_too_large"
                ? t("gif.tooLarge")
                : error.message || t("gif.uploadFailed"),
          });
        }
      },
    });
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (content.trim() === "" || disabled) return;
    onSend(content, gifUrl);
    setContent("");
    setGifUrl(null);
  };

  const uploading = upload.isPending;

  return (
    <form onSubmit={submit} className="flex flex-col gap-2 border-t p-3">
      {gifUrl && (
        <div className="relative w-fit" data-testid="gif-preview">
          <ChatGif attachmentUrl={gifUrl} alt={t("gif.previewAlt")} className="max-h-32" />
          <Button
            type="button"
            size="icon"
            variant="secondary"
            className="absolute -top-2 -right-2 size-7 rounded-full"
            aria-label={t("gif.remove")}
            onClick={() => {
              removeGif.mutate(gifUrl);
              setGifUrl(null);
            }}
          >
            <X aria-hidden="true" />
          </Button>
        </div>
      )}
      <div className="flex items-center gap-2">
        <input
          ref={fileInput}
          type="file"
          accept="image/gif"
          className="sr-only"
          tabIndex={-1}
          aria-hidden="true"
          data-testid="gif-input"
          onChange={(event) => pickFile(event.target.files?.[0])}
        />
        <Button
          type="button"
          variant="outline"
          size="icon"
          aria-label={uploading ? t("gif.uploading") : t("gif.upload")}
          title={t("gif.upload")}
          disabled={disabled || uploading || gifUrl !== null}
          onClick={() => fileInput.current?.click()}
        >
          {uploading ? <Spinner /> : <ImagePlus aria-hidden="true" />}
        </Button>
        <Input
          value={content}
          onChange={(event) => {
            setContent(event.target.value);
            onTyping();
          }}
          placeholder={t("chat.placeholder")}
          aria-label={t("chat.inputLabel")}
          maxLength={2000}
          disabled={disabled}
          autoComplete="off"
        />
        <Button
          type="submit"
          disabled={disabled || content.trim() === ""}
          aria-label={t("chat.send")}
        >
          <SendHorizontal aria-hidden="true" />
          <span className="hidden sm:inline">{t("chat.send")}</span>
        </Button>
      </div>
    </form>
  );
}
