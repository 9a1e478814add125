import { Button, Card, Tabs } from '@mantine/core';
import { IconChartBar, IconLayoutList, IconPlus, IconRefresh, IconUserPlus, IconUsers } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { PageHeader } from '@/components/layout/page-header';
import { useTemplates } from '../api/get-templates';
import { templateKeys } from '../api/keys';
import type { PaymentTemplate } from '../api/types';
import { AssignTemplateModal } from '../components/assign-template-modal';
import { AssignmentsTab } from '../components/assignments-tab';
import { PerformanceModal } from '../components/performance-modal';
import { PerformanceTab } from '../components/performance-tab';
import { CreateTemplateModal, EditTemplateModal } from '../components/template-modals';
import { TemplatesTab } from '../components/templates-tab';

const TABS = ['templates', 'performance', 'assignments'] as const;
type Tab = (typeof TABS)[number];

export default function PaymentTemplatesRoute() {
  const qc = useQueryClient();
  const [params, setParams] = useSearchParams();
  const tab: Tab = (TABS as readonly string[]).includes(params.get('tab') ?? '') ? (params.get('tab') as Tab) : 'templates';
  const templates = useTemplates();
  const [creating, setCreating] = useState(false);
  const [assigning, setAssigning] = useState<{ templateId: number | null } | null>(null);
  const [editing, setEditing] = useState<PaymentTemplate | null>(null);
  const [performance, setPerformance] = useState<PaymentTemplate | null>(null);
  const list = templates.data?.templates ?? [];

  return (
    <>
      <PageHeader
        title="Payment Templates"
        subtitle="The plans customers pay on: deposit, daily price, activation and grace period."
        actions={
          <>
            <Button variant="default" leftSection={<IconUserPlus size={16} />} onClick={() => setAssigning({ templateId: null })}>
              Assign Template
            </Button>
            <Button leftSection={<IconPlus size={16} />} onClick={() => setCreating(true)}>
              Create Template
            </Button>
            <Button
              variant="default"
              leftSection={<IconRefresh size={16} />}
              loading={templates.isFetching && !templates.isPending}
              onClick={() => void qc.invalidateQueries({ queryKey: templateKeys.all })}
            >
              Refresh
            </Button>
          </>
        }
      />
      <Card padding="lg">
        <Tabs
          value={tab}
          onChange={(v) => setParams(v && v !== 'templates' ? { tab: v } : {}, { replace: true })}
          keepMounted={false}
        >
          <Tabs.List mb="md">
            <Tabs.Tab value="templates" leftSection={<IconLayoutList size={16} />}>
              Templates
            </Tabs.Tab>
            <Tabs.Tab value="performance" leftSection={<IconChartBar size={16} />}>
              Performance
            </Tabs.Tab>
            <Tabs.Tab value="assignments" leftSection={<IconUsers size={16} />}>
              Assignments
            </Tabs.Tab>
          </Tabs.List>
          <Tabs.Panel value="templates">
            <TemplatesTab
              templates={templates.data?.templates}
              total={templates.data?.total ?? 0}
              loading={templates.isPending}
              failed={templates.isError}
              onRetry={() => void templates.refetch()}
              onPerformance={setPerformance}
              onAssign={(t) => setAssigning({ templateId: t.template_id })}
              onEdit={setEditing}
            />
          </Tabs.Panel>
          <Tabs.Panel value="performance">
            <PerformanceTab />
          </Tabs.Panel>
          <Tabs.Panel value="assignments">
            <AssignmentsTab templates={list} />
          </Tabs.Panel>
        </Tabs>
      </Card>

      <CreateTemplateModal opened={creating} onClose={() => setCreating(false)} />
      <EditTemplateModal template={editing} onClose={() => setEditing(null)} />
      <AssignTemplateModal
        key={assigning ? `assign-${assigning.templateId ?? 'any'}` : 'closed'}
        opened={assigning !== null}
        templateId={assigning?.templateId ?? null}
        templates={list}
        onClose={() => setAssigning(null)}
      />
      <PerformanceModal template={performance} onClose={() => setPerformance(null)} />
    </>
  );
}
