import { ThumbsDown, ThumbsUp } from "lucide-react";
import { useState } from "react";
import type { FeedbackPublic, FeedbackRating } from "../types";
import { IconButton } from "./IconButton";
import { Button } from "./Button";

export interface FeedbackButtonsProps {
  feedback: FeedbackPublic | null;
  onRate: (rating: FeedbackRating, comment: string | null) => Promise<boolean>;
}

/** Thumbs up or down; after either, an optional comment. Changing one's mind replaces it. */
export function FeedbackButtons({ feedback, onRate }: FeedbackButtonsProps) {
  const [commenting, setCommenting] = useState<FeedbackRating | null>(null);
  const [comment, setComment] = useState("");
  const rate = (rating: FeedbackRating) => {
    setComment(feedback?.rating === rating ? (feedback.comment ?? "") : "");
    setCommenting(rating);
    void onRate(rating, feedback?.rating === rating ? (feedback.comment ?? null) : null);
  };
  return (
    <>
      <IconButton
        icon={ThumbsUp}
        label="Good answer"
        className="pc-feedback-button"
        aria-pressed={feedback?.rating === "up"}
        data-feedback="up"
        onClick={() => {
          rate("up");
        }}
      />
      <IconButton
        icon={ThumbsDown}
        label="Bad answer"
        className="pc-feedback-button"
        aria-pressed={feedback?.rating === "down"}
        data-feedback="down"
        onClick={() => {
          rate("down");
        }}
      />
      {commenting !== null && (
        <form
          className="pc-feedback-form"
          aria-label="Feedback comment"
          onSubmit={(event) => {
            event.preventDefault();
            const text = comment.trim();
            void onRate(commenting, text === "" ? null : text).then((ok) => {
              if (ok) setCommenting(null);
            });
          }}
        >
          <textarea
            aria-label="Comment (optional)"
            placeholder="What was good or bad about it? (optional)"
            maxLength={2000}
            value={comment}
            onChange={(event) => {
              setComment(event.target.value);
            }}
          />
          <div className="pc-form-buttons">
            <Button type="submit" variant="primary" size="sm">
              Save feedback
            </Button>
            <Button
              variant="quiet"
              size="sm"
              onClick={() => {
                setCommenting(null);
              }}
            >
              Close
            </Button>
          </div>
        </form>
      )}
    </>
  );
}
