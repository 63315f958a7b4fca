"use client";

import { Field, TimeRangeField, type TimeRange } from "@/components/ui";
import { Select } from "@/components/ui/select";
import { activityCategoryList, activityCategoryStyles, type ActivityCategory } from "./activity-categories";

// The feed's filters: one category (or all) and a time range. Every change starts again from the newest page.

export type ActivityFilterValues = { category?: ActivityCategory; range: TimeRange };

export function ActivityFilters({ values, onChange }: { values: ActivityFilterValues; onChange: (values: ActivityFilterValues) => void }) {
  const set = (patch: Partial<ActivityFilterValues>) => onChange({ ...values, ...patch });
  return (
    <div className="grid grid-cols-2 gap-3 border-b border-zinc-200 px-5 py-4 sm:flex sm:flex-wrap sm:items-end">
      <Field label="Category" className="sm:w-52">
        <Select
          value={values.category ?? ""}
          onChange={(event) => set({ category: (event.target.value || undefined) as ActivityCategory | undefined })}
        >
          <option value="">All categories</option>
          {activityCategoryList.map((category) => (
            <option key={category} value={category}>
              {activityCategoryStyles[category].label}
            </option>
          ))}
        </Select>
      </Field>
      <TimeRangeField className="sm:w-44" value={values.range} onChange={(range) => set({ range })} />
    </div>
  );
}
